// Package editors holds no Go code: it is the home of the editor set-ups for
// the textfrag language server (textfrag lsp) and of their tests.
//
//	vscode/          an extension: package.json, extension.js (run as checked in)
//	neovim/          textfrag.lua, for Neovim 0.7 and later
//	helix/           languages.toml
//	README.md        the copy-paste set-up per editor (Emacs and Zed included)
//	testdata/        stand-ins the tests load the set-ups with: a stub vscode
//	                 module for Node, spies on Neovim's LSP client, a fake
//	                 textfrag that records how an editor started it
//
// The tests parse each configuration as its editor would, and run the VS Code
// extension in Node and the Neovim snippet in a headless Neovim; they need
// node and nvim (scripts/install-test-deps installs them), and fail saying so
// unless TEXTFRAG_SKIP_EDITORS=1.
package editors
