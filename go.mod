module github.com/textfrag/textfrag

go 1.26.0

require (
	github.com/alecthomas/chroma/v2 v2.27.0
	github.com/pelletier/go-toml/v2 v2.4.3
	github.com/yuin/goldmark v1.8.7
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/net v0.61.0
	golang.org/x/text v0.43.0
	golang.org/x/tools v0.52.0
)

require github.com/dlclark/regexp2/v2 v2.2.1 // indirect
