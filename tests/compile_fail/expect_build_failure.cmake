# cmake -DBUILD_DIR=... -DTARGET=... -DEXPECT=REGEX -P expect_build_failure.cmake
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${BUILD_DIR}" --target "${TARGET}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(rc EQUAL 0)
  message(FATAL_ERROR "${TARGET} compiled, but it must not")
endif()
if(NOT out MATCHES "${EXPECT}")
  message(FATAL_ERROR "${TARGET} failed for another reason than /${EXPECT}/:\n${out}")
endif()
message(STATUS "${TARGET} failed to compile as expected (/${EXPECT}/)")
