package secret

import (
	"strings"
	"testing"
)

func TestPasswordHash(t *testing.T) {
	h, err := DefaultHasher.Hash("correct horse")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("hash %q", h)
	}
	if !Verify(h, "correct horse") || Verify(h, "correct hors") || Verify("garbage", "x") || Verify("$argon2id$v=19$m=99999999,t=1,p=1$AA$AA", "x") {
		t.Fatal("verify")
	}
	h2, _ := DefaultHasher.Hash("correct horse")
	if h == h2 {
		t.Fatal("no salt")
	}
}

func TestTokens(t *testing.T) {
	a, _ := NewToken()
	b, _ := NewToken()
	if len(a) != 43 || a == b || HashToken(a) == a || len(HashToken(a)) != 64 || HashToken(a) != HashToken(a) {
		t.Fatalf("tokens %q %q", a, b)
	}
}
