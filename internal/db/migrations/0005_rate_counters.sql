-- Per-key attempt counters (see internal/ratelimit): one row per key,
-- updated by a single conditional upsert, so concurrent requests on any
-- number of replicas can never let more than the limit through. They
-- replace rate_events, whose check-then-insert raced.
CREATE TABLE rate_counters (
    rkey         TEXT PRIMARY KEY,
    n            INTEGER NOT NULL,
    window_start BIGINT NOT NULL -- unix milliseconds of the window's first attempt
);
CREATE INDEX rate_counters_window ON rate_counters (window_start);

DROP TABLE rate_events;
