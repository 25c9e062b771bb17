// Package layers holds a test of the module's import graph: every package sits in a layer of
// the table in layers_test.go (the README's Layout, as imports see it), imports only packages
// of lower layers, and the graph has no cycles. A new package fails the test until it is given
// a layer, so the layout is decided when a package is added, not discovered later.
package layers
