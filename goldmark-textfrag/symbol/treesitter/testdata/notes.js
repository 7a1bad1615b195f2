"use strict";

const DEFAULT_LIMIT = 20;

/**
 * Keeps notes in memory.
 */
class NoteStore {
  #items = new Map();

  add(note) {
    this.#items.set(note.id, note);
  }

  get size() {
    return this.#items.size;
  }
}

// Renders one note as text.
function* lines(note) {
  yield note.title;
  yield* note.body.split("\n");
}

module.exports = { NoteStore, lines, DEFAULT_LIMIT };
