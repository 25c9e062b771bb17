package kstatus

// Rules for the rbac.authorization.k8s.io group: the authorizer reads these objects
// directly, with no controller in between.

func init() {
	for _, kind := range [...]string{"Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding"} {
		register(kind, alwaysCurrent(kind+" has no status to wait for"), "rbac.authorization.k8s.io")
	}
}
