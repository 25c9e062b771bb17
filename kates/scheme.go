package kates

import (
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
)

// Scheme knows every typed kind kates converts to and from: all of client-go's built-in kinds.
// Register your own types here (AddToScheme) to get them typed from Get, List, ParseManifests
// and snapshots; kinds it does not know come back Unstructured. That includes
// CustomResourceDefinition, whose Go types live in k8s.io/apiextensions-apiserver: kates reads
// the few CRD fields it needs from unstructured objects, so that a program that does not ask
// for them does not link that module. A program that wants CRDs typed registers them:
//
//	utilruntime.Must(apiextensionsv1.AddToScheme(kates.Scheme))
var Scheme = newScheme()

func newScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(s))
	return s
}
