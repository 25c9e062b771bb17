// Command satoken prints a short-lived token of a ServiceAccount, from the TokenRequest API, as
// `kubectl create token` does: the demo uses it to scrape the example controller's metrics as a
// Prometheus would, with a bearer token the metrics server checks (TokenReview) and authorizes
// (SubjectAccessReview).
//
//	go run ./hack/satoken --kubeconfig .kates/kubeconfig --namespace kates-demo metrics-scraper
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/kates-dev/kates/kates"
)

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig file (default $KUBECONFIG, then ~/.kube/config)")
	namespace := flag.String("namespace", "default", "the ServiceAccount's namespace")
	duration := flag.Duration("duration", 10*time.Minute, "how long the token is valid")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: satoken [--kubeconfig FILE] [--namespace NS] [--duration 10m] SERVICEACCOUNT")
		os.Exit(2)
	}
	if err := run(*kubeconfig, *namespace, flag.Arg(0), *duration); err != nil {
		fmt.Fprintln(os.Stderr, "satoken:", err)
		os.Exit(1)
	}
}

func run(kubeconfig, namespace, name string, duration time.Duration) error {
	c, err := kates.NewClient(kates.ClientConfig{Kubeconfig: kubeconfig})
	if err != nil {
		return err
	}
	cs, err := kubernetes.NewForConfigAndClient(c.RESTConfig(), c.HTTPClient())
	if err != nil {
		return err
	}
	seconds := int64(duration.Seconds())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tr, err := cs.CoreV1().ServiceAccounts(namespace).CreateToken(ctx, name,
		&authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: &seconds}}, metav1.CreateOptions{})
	if err != nil {
		return err
	}
	fmt.Println(tr.Status.Token)
	return nil
}
