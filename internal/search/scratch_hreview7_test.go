package search

import "testing"

func TestScratchReleases(t *testing.T) {
	for _, q := range []string{
		"How do I give Alice 3 roles?", "Does HTTP 2 multiplex requests?", "Can I run 2 PostgreSQL 15 servers?",
		"What does Version 2 of the API change?", "What does Exercise 3 ask?", "How do I set Work_Mem 64 MB?",
		"Which Python 3 modules?", "Is the Pi 4 fast?", "What does SQLSTATE 42 mean?", "How many CPUs does Kubernetes 1.29 need?",
		"What does Theorem 2 state?", "In Volume 2, what is said?", "How do I use the Release 2 API?", "What is the default for Windows 10 and 11?",
		"Where is Room 12?", "What does Lemma 4 prove?", "Does Debian 12.5 ship it?", "What's in PostgreSQL 18.0?", "Is Go 1.22 required?",
		"Does the Ryzen 9 7950X support it?", "How do I set JAVA_HOME to Java 17?", "What's in the Q3 2024 report for Q 3?",
		"Why does Tom 5 miss?", "What is the RAM 16 GB requirement?", "Is Über 2 available?", "Does Ｐｏｓｔｇｒｅｓ 18 work?",
		"Is Module 3 required for Unit 4?", "What does Question 5 ask?", "Can I use Node 18.x?", "Does it work with PHP 8.3.1.2?",
	} {
		t.Logf("%q -> %q  opts %q", q, releases(q), commandOptions(q))
	}
	for _, q := range []string{"What does --cloud-sync do?", "What does pg_dump --no-owner—do?", "What is ‘--foo’?", "Use –-bar", "What does -—x do", "Is --x-y- ok", "Set --max_connections", "What about --1x?", "a ---triple"} {
		t.Logf("%q -> opts %q", q, commandOptions(q))
	}
}
