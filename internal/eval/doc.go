// Package eval is ragd's retrieval evaluation: per-tenant question sets,
// runs through the production search path with every leg ablated, stored runs
// that can be compared, fusion tuning, refusal calibration and BEIR import.
// docs/EVAL.md has the commands and the measured figures.
//
// Why it is shaped this way:
//
//   - Labels are documents (source_uris), not chunk ids, so a set survives
//     re-chunking and re-embedding; a run maps each search's ranked chunks to
//     documents, a document taking the rank of its first chunk (DocRanking).
//     This is how BEIR scores passage-level retrievers on document qrels
//     ("MaxP"), so SciFact figures compare with published tables.
//   - A run calls search.Searcher.Search itself — the production path — once
//     per leg: vector only and keyword only (Request.Only, both weights forced
//     to 1 so a tuned-away leg is still measured), fused with the tenant's
//     settings, and reranked when a reranker is configured. The top-level
//     metrics are the production leg's (reranked if on, else fused).
//   - Metrics follow BEIR / pytrec_eval with binary relevance (metrics.go):
//     recall@k = |relevant ∩ top-k| / |relevant|, nDCG@10 with a log2
//     discount and an ideal DCG over min(10, |relevant|), MRR@10; averaged
//     over the answerable questions only. Unanswerable questions (no
//     relevant documents) feed the refusal calibration instead.
//   - A run is stored with a snapshot of everything that shaped it (effective
//     settings, depth, models, the documents' ingest fingerprints, counts), so
//     `ragd eval compare` can say what changed as well as what got worse.
//   - Tuning retrieves each leg once per question and scores every point of
//     a grid of tenant.Settings in memory with the production path's fusion
//     (search.Fuse) and search.Diversify; because each leg's ranking is
//     deterministic (distance or score, then chunk id), a leg's top n is a
//     prefix of its top N, so the in-memory fusion is the production fusion,
//     and the kept point is re-run through the production path to prove it
//     (TuneResult.Verified). Weighted RRF matters: a weak leg fused at equal
//     weight drags the strong one down (SciFact train: BM25 0.693 nDCG@10
//     alone, 0.474 fused equally with the local model; docs/EVAL.md).
//   - The best point of a grid measured on the questions it was chosen on is
//     flattered by the set's noise (pgdocs: +0.025 nDCG@10 in-sample, +0.006
//     held out). Tune cross-validates the choice (k folds by a hash of the
//     question text, FoldOf), compares the held-out result with the default
//     per question (paired bootstrap intervals, a power estimate), and adopts
//     a configuration only when the held-out gain is beyond noise (Decide);
//     the cross-validation sees only per-question metrics, so any parameter a
//     grid point can carry is cross-validated alike (cv.go).
//   - Refusal: Response.Confidence, the answerability probability, is
//     thresholded. Its default model is fitted on public data only
//     (answerability.go: `eval signals` records each question's signals,
//     FitAnswerModel fits them, TestDefaultAnswerModelIsTheFit keeps the
//     code equal to the fit). A tenant's calibration is cross-validated
//     like the fusion (CalibrateAnswerability: a threshold, or a model
//     refitted toward the default) and stored only when it beats the
//     default on held-out folds.
package eval
