package symbol

import (
	"path"
	"strings"
)

// langNames maps a link's lang= option to a language of this package.
var langNames = map[string]string{
	"go": "go", "python": "python", "py": "python",
	"javascript": "javascript", "js": "javascript",
	"typescript": "typescript", "ts": "typescript", "tsx": "tsx",
	"rust": "rust", "rs": "rust", "java": "java",
	"c": "c", "cpp": "cpp", "c++": "cpp",
}

// extensions maps a file name's extension to its language.
var extensions = map[string]string{
	".go": "go",
	".py": "python", ".pyi": "python", ".pyw": "python",
	".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript",
	".ts": "typescript", ".mts": "typescript", ".cts": "typescript",
	".tsx": "tsx", ".rs": "rust", ".java": "java", ".c": "c",
	".h": "cpp", ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".c++": "cpp",
	".hh": "cpp", ".hpp": "cpp", ".hxx": "cpp", ".ipp": "cpp",
}

// displayNames are the languages' names in messages, for languages the
// Set has no parser for (a parser names its own: Parser.Language).
var displayNames = map[string]string{
	"go": "Go", "python": "Python", "javascript": "JavaScript", "typescript": "TypeScript",
	"tsx": "TSX", "rust": "Rust", "java": "Java", "c": "C", "cpp": "C++",
}

// LanguageOf returns the language a file's names are looked up in: lang
// (a link's lang= option) when it names a language of this package, else
// by the file name's extension: "go", "python", "javascript", "typescript",
// "tsx", "rust", "java", "c", "cpp"; "" when unknown. Letter case does not
// count (".H" is C++, as ".h" is).
func LanguageOf(p, lang string) string {
	if l, ok := langNames[strings.ToLower(lang)]; ok {
		return l
	}
	return extensions[strings.ToLower(path.Ext(p))]
}

// DisplayName returns a language's name for people ("Go", "C++"), or
// language itself when it is none of this package's.
func DisplayName(language string) string {
	if n, ok := displayNames[language]; ok {
		return n
	}
	return language
}
