package seed

// SetBatches makes Write's batches n stores and runs after after each
// committed batch (nil: nothing) until the returned func restores them.
func SetBatches(n int, after func(stores int) error) (restore func()) {
	oldN, oldAfter := batchSize, afterBatch
	batchSize, afterBatch = n, after
	return func() { batchSize, afterBatch = oldN, oldAfter }
}
