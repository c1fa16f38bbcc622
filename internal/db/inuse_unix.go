//go:build unix

package db

import (
	"os"

	"golang.org/x/sys/unix"
)

// shmDMS is the byte of a WAL database's -shm file on which every
// connection holds a read lock while it has the database open (SQLite's
// "dead man switch", UNIX_SHM_DMS in os_unix.c); SQLite itself tests it the
// same way to learn whether it is the first to open the database.
const shmDMS = 128

// inUse reports whether another process has the SQLite database at path
// open (POSIX locks: the caller's own connections do not count).
func inUse(path string) bool {
	f, err := os.Open(path + "-shm")
	if err != nil {
		return false // no -shm file: nobody has it open in WAL mode
	}
	defer f.Close()
	lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: 0, Start: shmDMS, Len: 1}
	if err := unix.FcntlFlock(f.Fd(), unix.F_GETLK, &lk); err != nil {
		return false
	}
	return lk.Type != unix.F_UNLCK
}
