// Package target finds the files that RFC 5147 links point to and applies
// their fragments, inside a security realm.
//
//	link "../src/a.go#line=1,9" in docs/guide.md
//	  └─ SplitLink: fragment taken before any decoding
//	  └─ projectPath: resolve against docs/, decode each segment (%2F stays data),
//	     remove dot segments ─▶ "src/a.go"
//	  └─ locate: inside an allowed root? (else ErrOutsideRoot); NFC/NFD match
//	  └─ secrets: .git/, .env, *.pem, … as written or after symlinks? (ErrSecret)
//	  └─ load once per Resolver: os.Root refuses symlinks that leave the root;
//	     opened non-blocking, a regular file only (internal/realm)
//	  └─ rfc5147: select and verify
//	  └─ CheckName (a title's sym= or region=): FindName looks the name up in
//	     the file's decoded text with package symbol, parsed once per file,
//	     and its lines must be the link's (else symbol.ErrMismatch)
//
// Remote targets (http, https) are off by default: such links are
// ErrNotOurs. Options.Remote allows hosts; a link to an allowed host is then
// fetched (see remote.go: timeout, size limit, redirects confined to allowed
// hosts, Content-Type charset, on-disk cache, offline mode) and verified
// like a local file, and any failure to fetch it is ErrRemote.
//
// A Resolver is made per build and shared by all documents: each cached
// file is read and hashed once, and each remote target fetched once,
// however many links point at it. It keeps what it read until Forget, so a
// build is the unit: Fresh gives one with nothing read for the next. Errors
// are typed (ErrNotFound, ErrOutsideRoot, ErrSecret, ErrIsDirectory,
// ErrBadPath, ErrRemote, the rfc5147 errors, and package symbol's for
// names) for errors.Is; Explain turns any of them into a message with a
// remedy, and Kind into the corpus's outcome words.
package target
