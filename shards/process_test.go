package shards_test

const replicaEnv = "KATES_SHARDS_REPLICA"

func replicaMain() int { return 2 }
