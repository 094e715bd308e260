package api

import (
	"net/http"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/limit"
	"github.com/ragd-dev/ragd/internal/traffic"
)

// metrics are ragd's Prometheus series (served at GET /metrics).
type metrics struct {
	reg       *prometheus.Registry
	requests  *prometheus.CounterVec
	duration  *prometheus.HistogramVec
	inflight  prometheus.Gauge
	stages    *prometheus.HistogramVec
	degraded  *prometheus.CounterVec
	documents *prometheus.CounterVec
	chunks    prometheus.Counter
	embedded  prometheus.Counter
	refused   *prometheus.CounterVec
}

func newMetrics(reg *prometheus.Registry, pool *pgxpool.Pool) *metrics {
	if reg == nil {
		reg = prometheus.NewRegistry()
		reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	}
	m := &metrics{
		reg: reg,
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "ragd_http_requests_total", Help: "HTTP requests by operation and status code.",
		}, []string{"operation", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "ragd_http_request_duration_seconds", Help: "HTTP request latency by operation and status code.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60},
		}, []string{"operation", "status"}),
		inflight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "ragd_http_requests_in_flight", Help: "HTTP requests being served.",
		}),
		stages: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "ragd_retrieval_stage_seconds", Help: "Latency of each retrieval stage (embed, retrieve, fuse, rerank; vector or keyword for single-leg searches; ...).",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5},
		}, []string{"stage"}),
		degraded: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "ragd_degraded_responses_total", Help: "Search or answer responses served degraded (a leg, the reranker or the LLM failed).",
		}, []string{"operation"}),
		documents: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "ragd_ingest_documents_total", Help: "Documents written through the API by outcome (added, updated, unchanged, deleted).",
		}, []string{"status"}),
		chunks: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "ragd_ingest_chunks_total", Help: "Chunks stored by document writes through the API.",
		}),
		embedded: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "ragd_ingest_embedded_chunks_total", Help: "Chunk texts sent to the embedding model (embedding cache misses) by synchronous writes (PUT, upload); a tenant's usage counts its jobs' too.",
		}),
	}
	m.refused = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "ragd_requests_refused_total", Help: "Requests refused before their handler: by a tenant's rate limit (429, reason rate_limit) or by admission control (503, reason queue_full or queue_wait), by route class (query, write, admin).",
	}, []string{"class", "reason"})
	reg.MustRegister(m.requests, m.duration, m.refused, m.inflight, m.stages, m.degraded, m.documents, m.chunks, m.embedded)
	if pool != nil {
		reg.MustRegister(poolCollector{pool})
	}
	return m
}

// registerTraffic exports the admission gate's state and the event
// recorder's counters. No series is labelled by tenant: the label sets stay
// bounded whatever the number of tenants.
func (m *metrics) registerTraffic(g *limit.Gate, rec *traffic.Recorder) {
	m.reg.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "ragd_admission_in_flight", Help: "Requests holding an admission slot."},
			func() float64 { return float64(g.InFlight()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "ragd_admission_queued", Help: "Requests waiting for an admission slot."},
			func() float64 { return float64(g.Queued()) }))
	if rec != nil {
		m.reg.MustRegister(rec)
	}
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

func (m *metrics) observeRequest(op string, status int, d time.Duration) {
	code := strconv.Itoa(status)
	m.requests.WithLabelValues(op, code).Inc()
	m.duration.WithLabelValues(op, code).Observe(d.Seconds())
}

// observeTimings records a search.Response's Timings (milliseconds).
func (m *metrics) observeTimings(timings map[string]float64) {
	for stage, ms := range timings {
		m.stages.WithLabelValues(stage).Observe(ms / 1000)
	}
}

func (m *metrics) observeOutcome(o ingest.Outcome) {
	m.documents.WithLabelValues(string(o.Status)).Inc()
	if o.Status != ingest.StatusUnchanged {
		m.chunks.Add(float64(o.Chunks))
	}
	m.embedded.Add(float64(o.Embedded))
}

// poolCollector exports pgxpool.Stat at scrape time.
type poolCollector struct{ pool *pgxpool.Pool }

var (
	poolDescs = struct {
		acquired, idle, constructing, total, max, acquires, emptyAcquires, canceled, acquireSeconds, newConns *prometheus.Desc
	}{
		acquired:       prometheus.NewDesc("ragd_db_pool_acquired_connections", "Connections in use.", nil, nil),
		idle:           prometheus.NewDesc("ragd_db_pool_idle_connections", "Idle connections.", nil, nil),
		constructing:   prometheus.NewDesc("ragd_db_pool_constructing_connections", "Connections being opened.", nil, nil),
		total:          prometheus.NewDesc("ragd_db_pool_total_connections", "Open connections.", nil, nil),
		max:            prometheus.NewDesc("ragd_db_pool_max_connections", "Pool size limit.", nil, nil),
		acquires:       prometheus.NewDesc("ragd_db_pool_acquires_total", "Successful connection acquisitions.", nil, nil),
		emptyAcquires:  prometheus.NewDesc("ragd_db_pool_empty_acquires_total", "Acquisitions that had to wait for a connection.", nil, nil),
		canceled:       prometheus.NewDesc("ragd_db_pool_canceled_acquires_total", "Acquisitions cancelled by their context.", nil, nil),
		acquireSeconds: prometheus.NewDesc("ragd_db_pool_acquire_seconds_total", "Time spent acquiring connections.", nil, nil),
		newConns:       prometheus.NewDesc("ragd_db_pool_new_connections_total", "Connections opened.", nil, nil),
	}
)

// Describe sends the descriptors.
func (c poolCollector) Describe(ch chan<- *prometheus.Desc) {
	d := poolDescs
	for _, desc := range []*prometheus.Desc{d.acquired, d.idle, d.constructing, d.total, d.max, d.acquires, d.emptyAcquires, d.canceled, d.acquireSeconds, d.newConns} {
		ch <- desc
	}
}

// Collect reads the pool's statistics.
func (c poolCollector) Collect(ch chan<- prometheus.Metric) {
	st := c.pool.Stat()
	d := poolDescs
	gauge := func(desc *prometheus.Desc, v float64) {
		ch <- prometheus.MustNewConstMetric(desc, prometheus.GaugeValue, v)
	}
	counter := func(desc *prometheus.Desc, v float64) {
		ch <- prometheus.MustNewConstMetric(desc, prometheus.CounterValue, v)
	}
	gauge(d.acquired, float64(st.AcquiredConns()))
	gauge(d.idle, float64(st.IdleConns()))
	gauge(d.constructing, float64(st.ConstructingConns()))
	gauge(d.total, float64(st.TotalConns()))
	gauge(d.max, float64(st.MaxConns()))
	counter(d.acquires, float64(st.AcquireCount()))
	counter(d.emptyAcquires, float64(st.EmptyAcquireCount()))
	counter(d.canceled, float64(st.CanceledAcquireCount()))
	counter(d.acquireSeconds, st.AcquireDuration().Seconds())
	counter(d.newConns, float64(st.NewConnsCount()))
}
