"""pymdownx.snippets with line ranges: --8<-- "path:start:end".

Debian 12 ships pymdown-extensions 9.5, whose snippets extension has no line
ranges; later releases select human lines start to end (1-based, inclusive;
either may be left out) of the file named before the colons. This extension
is 9.5's snippets with that one addition, done as upstream does it: every
snippet reads its whole file, slices the lines and is itself scanned for
nested snippets. Everything else (block snippets, URLs, auto_append) is
9.5's own code, unchanged.

Written for textfrag's benchmark (bench/run); load it as "snippet_lines"
with its directory on PYTHONPATH.
"""
import codecs
import re

from pymdownx import snippets

RE_LINES = re.compile(r'^(?P<path>.*?)(?::(?P<start>[0-9]*))?(?::(?P<end>[0-9]*))?$')


class LineRangePreprocessor(snippets.SnippetPreprocessor):
    """Inline snippets may end in :start:end; other lines go to 9.5's code."""

    def parse_snippets(self, lines, file_name=None, is_url=False):
        if file_name:
            self.seen.add(file_name)
        new_lines = []
        rest = []  # lines for 9.5's parser, handed on in runs

        def flush():
            if rest:
                new_lines.extend(super(LineRangePreprocessor, self).parse_snippets(list(rest), None, is_url))
                rest.clear()

        for line in lines:
            m = self.RE_ALL_SNIPPETS.match(line)
            if not m or not m.group('inline_marker') or is_url:
                rest.append(line)
                continue
            spec = m.group('snippet')[1:-1].strip()
            r = RE_LINES.match(spec)
            if spec.startswith('; ') or (r.group('start') is None and r.group('end') is None):
                rest.append(line)
                continue
            flush()
            space = m.group('space').expandtabs(self.tab_length)
            path = r.group('path').strip()
            start = int(r.group('start')) - 1 if r.group('start') else None
            end = int(r.group('end')) if r.group('end') else None
            snippet = self.get_snippet_path(path)
            if not snippet:
                if self.check_paths:
                    raise snippets.SnippetMissingError("Snippet at path %s could not be found" % path)
                continue
            if snippet in self.seen:
                continue
            with codecs.open(snippet, 'r', encoding=self.encoding) as f:
                s_lines = [l.rstrip('\r\n') for l in f]
            s_lines = s_lines[slice(max(start, 0) if start is not None else None, end)]
            new_lines.extend(space + l for l in self.parse_snippets(s_lines, snippet))
        flush()
        if file_name:
            self.seen.remove(file_name)
        return new_lines


class LineRangeExtension(snippets.SnippetExtension):
    def extendMarkdown(self, md):
        self.md = md
        md.registerExtension(self)
        md.preprocessors.register(LineRangePreprocessor(self.getConfigs(), md), "snippet", 32)


def makeExtension(*args, **kwargs):
    return LineRangeExtension(*args, **kwargs)
