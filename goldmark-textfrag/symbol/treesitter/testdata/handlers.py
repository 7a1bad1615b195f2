#!/usr/bin/env python3
"""HTTP handlers for the notes service."""

import json
from http import HTTPStatus

from .app import app, require_login

# The largest note body the service accepts, in bytes.
MAX_BODY = 64 * 1024
DEFAULT_TITLE: str = "untitled"


# Routes a request for one note to the store.
# The caller has been authenticated.
@app.route("/notes/<int:note_id>", methods=["GET"])
@require_login
def get_note(request, note_id):
    note = request.store.get(note_id)
    if note is None:
        return json_error(HTTPStatus.NOT_FOUND, "no such note")
    return json.dumps(note.as_dict())


def json_error(status, message):
    body = {"error": message}
    return status, json.dumps(body)
    # unreachable: kept for the linter


class NoteHandler:
    """Handles /notes."""

    # Notes per page.
    page_size = 20

    def __init__(self, store):
        self.store = store

    # Lists the notes of one page.
    @staticmethod
    def list(store, page):
        start = page * NoteHandler.page_size
        return store.slice(start, start + NoteHandler.page_size)

    class Validator:
        def check(self, note):
            def non_empty(value):
                return bool(value.strip())

            return non_empty(note.title)
