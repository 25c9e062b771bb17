// Package linksize holds a test of what a program pays, in binary size and linked packages, for
// importing only the kates package: testdata/clientonly calls kates.NewClient, Client.Watch and
// Client.Wait and nothing else. The test builds it for linux/amd64 with default flags and fails
// when the binary is larger than the bar or links a package that only validation, ApplySets,
// manifest input from kustomize or Lua status rules need (those live in packages of their own).
package linksize
