module github.com/textfrag/textfrag/hugo-module

go 1.26
