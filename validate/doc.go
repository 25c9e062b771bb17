// Package validate checks objects against the cluster's own schemas without writing anything —
// a custom resource against its CRD with the API server's validation code, a built-in kind
// against the schema the server publishes — and answers with the error the server would give:
//
//	v, err := validate.New(client)
//	if err := v.Validate(ctx, obj); apierrors.IsInvalid(err) {
//		var invalid *validate.Error
//		errors.As(err, &invalid) // invalid.Errors: every violation, with its field path
//	}
//
// It is a package of its own because it links k8s.io/apiserver and apiextensions-apiserver,
// which a program that only reads, watches and waits does not need.
package validate
