package job

import (
	"errors"
	"fmt"
	"sync"

	"golang.org/x/sync/semaphore"
)

// ErrBusy: the server holds as many jobs' files in memory as it allows
// (Intake); nothing was stored, and the job may be sent again shortly.
var ErrBusy = errors.New("job: the server is taking in other jobs' files; retry")

// Intake bounds the bytes of submitted files that jobs hold in memory at
// once, across every job of the process: a job's files (an archive's
// entries uncompressed) are read into memory before they are stored, so
// without a bound a few small archives that expand to the per-job limit
// (Limits.MaxJobBytes) each would take gigabytes (found by a breaker
// helper: three 242 KB uploads took a server to 2.15 GB). A job holds
// each file's bytes from just before it is read until the job is stored
// (Release); a file that does not fit beside the others fails the job with
// ErrBusy instead of waiting, so the request answers at once (503, retry).
type Intake struct {
	sem  *semaphore.Weighted
	mu   sync.Mutex
	held int64
}

// IntakeBudget is the process-wide budget of an Intake.
type IntakeBudget struct{ sem *semaphore.Weighted }

// NewIntakeBudget returns a budget of maxBytes (at least one job's limit,
// so that any job allowed by Limits can be taken in alone).
func NewIntakeBudget(maxBytes int64) IntakeBudget {
	return IntakeBudget{sem: semaphore.NewWeighted(max(maxBytes, 1))}
}

// Intake starts one job's intake under the budget; the zero budget is
// unbounded. Call Release once the job is stored or refused.
func (b IntakeBudget) Intake() *Intake { return &Intake{sem: b.sem} }

// Hold reserves n bytes for a file about to be read (the archive readers
// and the API's file parts). Errors: ErrBusy.
func (in *Intake) Hold(n int64) error {
	if in == nil || in.sem == nil || n <= 0 {
		return nil
	}
	if !in.sem.TryAcquire(n) {
		return fmt.Errorf("%w (%d bytes more would pass the server's budget for jobs' files in memory)", ErrBusy, n)
	}
	in.mu.Lock()
	in.held += n
	in.mu.Unlock()
	return nil
}

// Release returns every byte the job holds to the budget.
func (in *Intake) Release() {
	if in == nil || in.sem == nil {
		return
	}
	in.mu.Lock()
	n := in.held
	in.held = 0
	in.mu.Unlock()
	if n > 0 {
		in.sem.Release(n)
	}
}
