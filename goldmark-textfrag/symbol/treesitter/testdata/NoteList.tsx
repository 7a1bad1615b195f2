import React, { useState } from "react";

type Props = { notes: string[]; onPick?: (i: number) => void };

// One row; highlighted when picked.
function Row({ text, picked }: { text: string; picked: boolean }) {
  return <li className={picked ? "picked" : undefined}>{text}</li>;
}

/** The list of notes, with a filter box. */
export const NoteList = ({ notes, onPick }: Props) => {
  const [query, setQuery] = useState("");
  const shown = notes.filter((n) => n.includes(query));
  return (
    <div>
      <input value={query} onChange={(e) => setQuery(e.target.value)} />
      <ul>
        {shown.map((n, i) => (
          <Row key={i} text={n} picked={false} />
        ))}
      </ul>
    </div>
  );
};

export default class Legacy extends React.Component<Props> {
  render() {
    return <NoteList {...this.props} />;
  }
}
