// core.hpp is arithmetic and text only: it reaches no
// header that declares file-system, process, signal or dynamic-loading
// calls. Checked through the include guards of glibc and libstdc++, so a
// core header that starts to include one fails to build here.
#include <iteragpu/core.hpp>

#if defined(_UNISTD_H) || defined(_FCNTL_H) || defined(_SYS_STAT_H) || defined(_SYS_MMAN_H) || \
    defined(_SYS_WAIT_H) || defined(_SPAWN_H) || defined(_DLFCN_H) || defined(_SIGNAL_H) || defined(_CSIGNAL)
#error "iteragpu/core.hpp reaches a POSIX header of file-system, process, signal or loader calls"
#endif
#if defined(_GLIBCXX_FILESYSTEM) || defined(_GLIBCXX_FSTREAM) || defined(_GLIBCXX_IOSTREAM)
#error "iteragpu/core.hpp reaches <filesystem>, <fstream> or <iostream>"
#endif
