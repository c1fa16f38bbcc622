package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/search"
	"locator/internal/stores"
)

// holdEnv makes the test binary a process that keeps a database open
// (TestMain): a running server, as far as restore can tell.
const holdEnv = "LOCATOR_TEST_HOLD_DATABASE"

func TestMain(m *testing.M) {
	if url := os.Getenv(holdEnv); url != "" {
		holdDatabase(url)
		return
	}
	os.Exit(m.Run())
}

// holdDatabase opens url, reads from it, says "open" and keeps it open
// until its standard input closes.
func holdDatabase(url string) {
	d, err := db.Open(context.Background(), url)
	if err == nil {
		_, err = stores.NewRepo(d).Count(context.Background())
	}
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println("open")
	_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
	d.Close()
}

// openMigrated opens the SQLite database at path, migrated.
func openMigrated(t *testing.T, url string) *db.DB {
	t.Helper()
	d, err := db.Open(context.Background(), url)
	dbtest.Must(t, err, "open %s", url)
	t.Cleanup(func() { d.Close() })
	_, err = d.Migrate(context.Background())
	dbtest.Must(t, err, "migrate %s", url)
	return d
}

// A backup taken while three writers go on creating stores, each waiting
// for its previous write to commit: restored, it holds every store whose
// write was acknowledged before the backup began, and of each writer's
// later ones a prefix (one snapshot, no gap, no half a write), and the
// search index loads from it with every store it holds.
func TestBackupUnderWriteLoadRestoresEveryAcknowledgedWrite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	live := "sqlite:" + filepath.Join(dir, "live.db")
	d := openMigrated(t, live)
	sr := stores.NewRepo(d)

	const writers = 3
	var acked [writers]atomic.Int64
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Go(func() {
			for i := int64(1); ctx.Err() == nil; i++ {
				s := &stores.Store{Name: fmt.Sprintf("Writer %d store %d", w, i), StoreID: fmt.Sprintf("w%d-%d", w, i),
					Latitude: 40 + float64(w), Longitude: -74 + float64(i)/1e4, TimeZone: "America/New_York", State: "NY", Address: "1 Main St"}
				if err := sr.Create(ctx, s); err != nil {
					if ctx.Err() == nil {
						errs <- fmt.Errorf("writer %d, store %d: %w", w, i, err)
					}
					return
				}
				acked[w].Store(i)
			}
		})
	}
	t.Cleanup(func() { stop(); wg.Wait() })
	waitFor := func(n int64) {
		t.Helper()
		for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			select {
			case err := <-errs: // a writer that failed would never get there
				t.Fatal(err)
			default:
			}
			done := true
			for w := range writers {
				done = done && acked[w].Load() >= n
			}
			if done {
				return
			}
		}
		t.Fatalf("the writers did not reach %d stores each", n)
	}
	waitFor(20)

	file := filepath.Join(dir, "backup.db")
	e := env(map[string]string{"LOCATOR_DATABASE_URL": live})
	var before, after [writers]int64
	for w := range writers {
		before[w] = acked[w].Load()
	}
	var out, errOut syncBuffer
	dbtest.Must(t, run(context.Background(), []string{"backup", file}, &out, &errOut, e), "backup (%s)", errOut.String())
	for w := range writers {
		after[w] = acked[w].Load()
	}
	waitFor(after[0] + 5) // writes go on after the backup
	stop()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "backup written to "+file) {
		t.Errorf("backup said %q", out.String())
	}
	// No temporary file is left beside it.
	if left, _ := filepath.Glob(filepath.Join(dir, ".backup.db.*")); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
	if err := run(context.Background(), []string{"backup", file}, &out, &errOut, e); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Errorf("a backup over an existing file: %v", err)
	}

	restored := "sqlite:" + filepath.Join(dir, "restored.db")
	re := env(map[string]string{"LOCATOR_DATABASE_URL": restored})
	out = syncBuffer{}
	dbtest.Must(t, run(context.Background(), []string{"restore", file}, &out, &errOut, re), "restore")
	if !strings.Contains(out.String(), "database restored from "+file) {
		t.Errorf("restore said %q", out.String())
	}
	rd := openMigrated(t, restored)
	rows, err := rd.Query(context.Background(), "SELECT store_id FROM stores")
	dbtest.Must(t, err, "read the restored stores")
	var found [writers]map[int64]bool
	for w := range writers {
		found[w] = map[int64]bool{}
	}
	total := 0
	for rows.Next() {
		var id string
		dbtest.Must(t, rows.Scan(&id), "scan")
		var w int
		var i int64
		if _, err := fmt.Sscanf(id, "w%d-%d", &w, &i); err != nil || w < 0 || w >= writers {
			t.Fatalf("unexpected store %q", id)
		}
		found[w][i] = true
		total++
	}
	dbtest.Must(t, rows.Err(), "rows")
	rows.Close()
	for w := range writers {
		n := int64(len(found[w]))
		for i := int64(1); i <= n; i++ {
			if !found[w][i] {
				t.Errorf("writer %d: store %d missing among %d restored (a gap)", w, i, n)
			}
		}
		// A writer has one write in flight: committed (so possibly in the
		// backup) before Create returns and acknowledges it.
		if n < before[w] || n > after[w]+1 {
			t.Errorf("writer %d: %d stores restored; %d were acknowledged before the backup, %d when it ended (one more may be in flight)", w, n, before[w], after[w])
		}
		t.Logf("writer %d: %d acknowledged before the backup, %d restored, %d acknowledged when it ended", w, before[w], n, after[w])
	}
	// The search version and the stores agree: the index loads every one.
	ix := search.NewIndex()
	dbtest.Must(t, search.NewSyncer(stores.NewRepo(rd), ix, search.SnapshotAuto, slog.New(slog.NewTextHandler(io.Discard, nil))).Load(context.Background()), "load the index")
	if ix.Len() != total {
		t.Errorf("index of the restored database: %d stores, want %d", ix.Len(), total)
	}

	// An existing database is replaced only with --force; a file that is
	// not a backup never.
	if err := run(context.Background(), []string{"restore", file}, &out, &errOut, re); err == nil || exitCode(err) != 1 || !strings.Contains(err.Error(), "--force") {
		t.Errorf("restore over an existing database: %v", err)
	}
	dbtest.Must(t, run(context.Background(), []string{"restore", "--force", file}, &out, &errOut, re), "restore --force")
	junk := filepath.Join(dir, "junk.db")
	dbtest.Must(t, os.WriteFile(junk, []byte(strings.Repeat("not a database ", 500)), 0o600), "write junk")
	for _, bad := range []string{junk, filepath.Join(dir, "missing.db")} {
		if err := run(context.Background(), []string{"restore", "--force", bad}, &out, &errOut, re); err == nil {
			t.Errorf("restore from %s: no error", bad)
		}
	}
	var n int
	dbtest.Must(t, rd.QueryRow(context.Background(), "SELECT COUNT(*) FROM stores").Scan(&n), "count")
	if n != total {
		t.Errorf("after the refused restores: %d stores, want %d", n, total)
	}
}

// A database a running process has open is not replaced without --force.
func TestRestoreRefusesALiveDatabase(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	url := "sqlite:" + filepath.Join(dir, "live.db")
	d := openMigrated(t, url)
	file := filepath.Join(dir, "backup.db")
	dbtest.Must(t, d.Backup(context.Background(), file, false), "backup")
	d.Close()

	hold := exec.Command(os.Args[0], "-test.run=^$")
	hold.Env = append(os.Environ(), holdEnv+"="+url)
	in, err := hold.StdinPipe()
	dbtest.Must(t, err, "stdin")
	outPipe, err := hold.StdoutPipe()
	dbtest.Must(t, err, "stdout")
	dbtest.Must(t, hold.Start(), "start the holding process")
	t.Cleanup(func() { in.Close(); _ = hold.Wait() })
	if line, _ := bufio.NewReader(outPipe).ReadString('\n'); line != "open\n" {
		t.Fatalf("holding process: %q", line)
	}

	e := env(map[string]string{"LOCATOR_DATABASE_URL": url})
	var out, errOut syncBuffer
	err = run(context.Background(), []string{"restore", file}, &out, &errOut, e)
	var refused *db.RefusedError
	if !errors.As(db.Restore(context.Background(), url, file, false), &refused) || !refused.Live ||
		err == nil || !strings.Contains(err.Error(), "running process") || exitCode(err) != 1 {
		t.Fatalf("restore under a running process: %v", err)
	}
	in.Close()
	dbtest.Must(t, hold.Wait(), "holding process")
	// Closed, the database is only an existing one.
	if err := db.Restore(context.Background(), url, file, false); !errors.As(err, &refused) || refused.Live {
		t.Fatalf("restore once it closed: %v", err)
	}
}

// PostgreSQL is copied with its own tools: both commands say which, before
// connecting.
func TestBackupOfPostgresNamesPgDump(t *testing.T) {
	t.Parallel()
	e := env(map[string]string{"LOCATOR_DATABASE_URL": "postgres://nobody@127.0.0.1:1/none"})
	for cmd, want := range map[string]string{"backup": "pg_dump", "restore": "pg_restore"} {
		var out, errOut syncBuffer
		err := run(context.Background(), []string{cmd, filepath.Join(t.TempDir(), "x.dump")}, &out, &errOut, e)
		if err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), want) {
			t.Errorf("%s on PostgreSQL: %v (exit %d), want exit 2 naming %s", cmd, err, exitCode(err), want)
		}
	}
}
