// Backs glibc's heap with transparent huge pages where the kernel offers them on request
// (/sys/kernel/mm/transparent_hugepage/enabled is "madvise"). A 1 GB trace's run touches about
// 250 MB of heap for the first time; in 4 KiB pages that is some 100,000 page faults, which cost
// a quarter of `table`'s time on a virtual machine, and in 2 MiB pages a fifth as many
// (docs/performance.md "Page faults and huge pages").
//
// glibc does this only when the environment says so at start-up (GLIBC_TUNABLES=
// glibc.malloc.hugetlb=1: it then advises huge pages for each stretch of heap it maps), so the
// process starts itself again once with the tunable added. A GLIBC_TUNABLES that already names
// glibc.malloc.hugetlb is left as it is: glibc.malloc.hugetlb=0 turns this off.
#pragma once

namespace profana::app {

// Re-executes the program with the tunable added and does not return, where it applies (an
// argument other than -o's names a file of 128 MiB or more, a .gz of 16 MiB or more, or standard
// input) and the exec succeeds; otherwise returns, and the program goes on with the heap as it is.
void RestartWithHugePageHeap(char** argv);

}  // namespace profana::app
