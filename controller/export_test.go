package controller

// GetURL is getURL, for the package's external tests.
var GetURL = getURL
