package apply

// SetListReads sets how many objects of one kind and namespace a batch must have for Run to
// read them with one LIST, and how many objects that LIST reads per object of the batch, until
// restore is called. For tests and benchmarks; not while Run runs.
func SetListReads(min, perObject int) (restore func()) {
	oldMin, oldPer := listReadsMin, listReadsPerObject
	listReadsMin, listReadsPerObject = min, perObject
	return func() { listReadsMin, listReadsPerObject = oldMin, oldPer }
}
