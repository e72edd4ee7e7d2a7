# Writes ARCHIVE_DIR/MANIFEST.json: every file under ARCHIVE_DIR, sorted by
# path, with its size in bytes and SHA-256, plus the manifest itself listed
# without a size or hash (a file cannot carry its own digest).
#
#   cmake -DARCHIVE_DIR=<folder> -P cmake/manifest-write.cmake
#
# The text depends on the members' paths and bytes only (no timestamp, no
# absolute path), so the same files always give the same manifest.
cmake_minimum_required(VERSION 3.25)

if(NOT ARCHIVE_DIR OR NOT IS_DIRECTORY "${ARCHIVE_DIR}")
  message(FATAL_ERROR "manifest-write: ARCHIVE_DIR='${ARCHIVE_DIR}' is not a folder; expected -DARCHIVE_DIR=<folder>")
endif()
if(EXISTS "${ARCHIVE_DIR}/MANIFEST.json")
  message(FATAL_ERROR "manifest-write: ${ARCHIVE_DIR}/MANIFEST.json already exists; it is never overwritten")
endif()

file(GLOB_RECURSE _files LIST_DIRECTORIES false RELATIVE "${ARCHIVE_DIR}" "${ARCHIVE_DIR}/*")
list(APPEND _files MANIFEST.json)
list(SORT _files)  # byte order, whatever the locale

get_filename_component(_archive "${ARCHIVE_DIR}" NAME)
list(LENGTH _files _count)
set(_entries "")
foreach(_path IN LISTS _files)
  # Paths travel as JSON strings and CMake list items: keep to characters
  # that need no escaping in either.
  if(NOT _path MATCHES "^[A-Za-z0-9_+.-]+(/[A-Za-z0-9_+.-]+)*$")
    message(FATAL_ERROR "manifest-write: '${_path}' has characters a manifest path does not take; "
                        "expected letters, digits and _ + . - between slashes")
  endif()
  if(_path STREQUAL "MANIFEST.json")
    list(APPEND _entries "    {\"path\": \"MANIFEST.json\", \"size\": null, \"sha256\": null, \"note\": \"this manifest, listed without a size or hash of its own to avoid a self-referential digest\"}")
  else()
    if(IS_SYMLINK "${ARCHIVE_DIR}/${_path}")
      message(FATAL_ERROR "manifest-write: '${_path}' is a symbolic link; members are plain files")
    endif()
    file(SIZE "${ARCHIVE_DIR}/${_path}" _size)
    file(SHA256 "${ARCHIVE_DIR}/${_path}" _sha256)
    list(APPEND _entries "    {\"path\": \"${_path}\", \"size\": ${_size}, \"sha256\": \"${_sha256}\"}")
  endif()
endforeach()
list(JOIN _entries ",\n" _members)

file(WRITE "${ARCHIVE_DIR}/MANIFEST.json" "{
  \"schema_version\": 1,
  \"archive\": \"${_archive}\",
  \"hash\": \"sha256\",
  \"member_count\": ${_count},
  \"members\": [
${_members}
  ]
}
")
