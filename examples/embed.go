// Package examples embeds the example projects that `stratum new` copies.
package examples

import "embed"

// Blog is the examples/blog project.
//
//go:embed blog/config blog/src all:blog/public
var Blog embed.FS
