package controllers_test

import (
	"fmt"
	"os"
	"testing"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

func TestMain(m *testing.M) {
	if peer := os.Getenv(peerEnv); peer != "" {
		os.Exit(runPeer(peer))
	}
	os.Exit(m.Run())
}

// configFrom loads the kubeconfig at path.
func configFrom(path string) (*rest.Config, error) {
	if path == "" {
		return nil, fmt.Errorf("KATES_TEST_KUBECONFIG is not set")
	}
	return clientcmd.BuildConfigFromFlags("", path)
}
