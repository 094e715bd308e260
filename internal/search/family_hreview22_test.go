package search_test

import (
	"context"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
)

// TestHR22FourPartNamesOfOrdinaryPrefixesAreNoStray: the new family of the
// first two parts (identifierFamilies, ≥ 4 parts) makes every four-part
// name that shares a common two-part prefix with any name the documents
// write a "stray member", capped at 0.1:
//   - Django users write Celery settings in the CELERY_ namespace
//     (CELERY_TASK_ACKS_LATE for task_acks_late, as the Django page does
//     with CELERY_TASK_TIME_LIMIT): "CELERY_TASK" is now a family, and a
//     question about a documented setting is refused;
//   - an asker's own function (get_user_by_email) shares "get_user" with
//     the documented get_user_model.
//
// Before the rule both were left to the model and answered (0.54 and 0.61 on a similar corpus).
func TestHR22FourPartNamesOfOrdinaryPrefixesAreNoStray(t *testing.T) {
	t.Parallel()
	tt, s := corpusTenant(t, "hr22-family", "english", map[string]string{
		"celery.md": "# Configuration\n\nThe task_default_queue setting names the default queue. The task_acks_late setting makes the worker acknowledge a task after it ran. " +
			"When using Django, settings are read from the Django settings module with the CELERY_ namespace, for example CELERY_TASK_TIME_LIMIT = 30 * 60 and CELERY_TASK_TRACK_STARTED = True.",
		"auth.md": "# Users\n\nThe get_user_model function returns the active user model. To make a lookup of a user by email case-insensitive, " +
			"use the iexact lookup: User.objects.get(email__iexact=email).",
	})
	ctx := context.Background()
	for _, q := range []string{
		"How do I set CELERY_TASK_ACKS_LATE in the Django settings module?",
		"How do I make get_user_by_email do a case-insensitive lookup of a user?",
	} {
		resp, err := s.Search(ctx, tt, search.Request{Query: q, TopK: 3})
		if err != nil {
			t.Fatal(err)
		}
		if resp.Signals.Capped {
			t.Errorf("%q: capped as a stray family member (confidence %.3f, %q, missing %q), want it left to the model",
				q, resp.Confidence, resp.ConfidenceReason, resp.MissingTerms)
		}
	}
}
