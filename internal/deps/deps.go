//go:build tools

// Package deps pins modules that later packages use, until they import them.
// Delete this file once every module here is imported by real code.
package deps

import (
	_ "github.com/go-logr/logr"
	_ "github.com/google/go-cmp/cmp"
	_ "github.com/spf13/cobra"
	_ "github.com/stretchr/testify/require"
	_ "go.uber.org/goleak"
	_ "k8s.io/api/core/v1"
	_ "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	_ "k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	_ "k8s.io/cli-runtime/pkg/genericclioptions"
	_ "k8s.io/cli-runtime/pkg/resource"
	_ "k8s.io/client-go/dynamic"
	_ "k8s.io/client-go/kubernetes"
	_ "k8s.io/client-go/metadata"
	_ "k8s.io/client-go/restmapper"
	_ "k8s.io/client-go/tools/cache"
	_ "k8s.io/klog/v2"
	_ "sigs.k8s.io/yaml"
)
