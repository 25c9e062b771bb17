//go:build tools

// Package deps pins modules that later packages use, until they import them.
// Delete this file once every module here is imported by real code.
package deps
import (
	_ "k8s.io/client-go/dynamic"
	_ "k8s.io/client-go/kubernetes"
	_ "k8s.io/client-go/metadata"
	_ "k8s.io/client-go/tools/cache"
	_ "k8s.io/client-go/restmapper"
	_ "k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	_ "k8s.io/api/core/v1"
	_ "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	_ "k8s.io/cli-runtime/pkg/genericclioptions"
	_ "k8s.io/cli-runtime/pkg/resource"
	_ "github.com/google/go-cmp/cmp"
	_ "github.com/stretchr/testify/require"
	_ "github.com/spf13/cobra"
	_ "sigs.k8s.io/yaml"
	_ "k8s.io/klog/v2"
	_ "github.com/go-logr/logr"
	_ "go.uber.org/goleak"
)
