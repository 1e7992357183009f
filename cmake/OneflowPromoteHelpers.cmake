# The two declarations every CMakeLists.txt of this tree uses: a library and
# a test. They carry what the Bazel build sets once (.bazelrc, cuda.bzl), so
# the per-folder files read like the BUILD.bazel files beside them.

# oneflow_promote_library(NAME
#     [SRCS src...]         none: a header-only (INTERFACE) library
#     [CU_SRCS src.cu...]   a cuda_library: nvcc sources, built with CUDA only
#     [HDRS hdr...]         public headers, installed with their source path
#     [DEPS target...]      public: what HDRS include
#     [PRIVATE_DEPS target...]
#     [COPTS opt...]        private compile options (Bazel's copts)
#     [INTERNAL])           static, not installed (the CLI, test helpers)
# defines the target oneflow_promote_NAME (also the library's file name),
# aliased and exported as oneflow_promote::NAME.
function(oneflow_promote_library name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "INTERNAL" ""
                        "SRCS;CU_SRCS;HDRS;DEPS;PRIVATE_DEPS;COPTS")
  set(target oneflow_promote_${name})
  if(arg_INTERNAL)
    add_library(${target} STATIC ${arg_SRCS} ${arg_HDRS})
    target_include_directories(${target} PUBLIC ${PROJECT_SOURCE_DIR})
    set(scope PUBLIC)
  elseif(arg_SRCS)
    add_library(${target} ${arg_SRCS})
    set(scope PUBLIC)
  else()
    add_library(${target} INTERFACE)
    set(scope INTERFACE)
  endif()
  add_library(oneflow_promote::${name} ALIAS ${target})

  if(NOT arg_INTERNAL)
    # Headers include each other from the source root ("kernels/cast.h"); the
    # file set keeps that layout under include/ when installed.
    target_sources(${target} ${scope} FILE_SET HEADERS BASE_DIRS ${PROJECT_SOURCE_DIR}
                   FILES ${arg_HDRS})
    set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
    install(TARGETS ${target} EXPORT oneflow_promoteTargets FILE_SET HEADERS)
  endif()
  target_compile_features(${target} ${scope} cxx_std_17)
  target_link_libraries(${target} ${scope} ${arg_DEPS})
  if(scope STREQUAL "INTERFACE")
    return()
  endif()

  target_link_libraries(${target} PRIVATE ${arg_PRIVATE_DEPS})
  target_compile_options(${target} PRIVATE "$<$<COMPILE_LANGUAGE:CXX>:-Wall;${arg_COPTS}>")
  set_target_properties(${target} PROPERTIES
    VERSION ${PROJECT_VERSION}
    SOVERSION ${PROJECT_VERSION_MAJOR}
    POSITION_INDEPENDENT_CODE ON
    # Installed libraries find each other beside themselves, and cudart where
    # it was linked from (as Bazel's -rpath to the toolkit does).
    INSTALL_RPATH "$ORIGIN"
    INSTALL_RPATH_USE_LINK_PATH ON)

  if(arg_CU_SRCS)
    # cuda_library: the .cu sources and cudart with CUDA, neither without it;
    # the define reaches dependents, as Bazel's `defines` does.
    if(ONEFLOW_PROMOTE_CUDA)
      target_sources(${target} PRIVATE ${arg_CU_SRCS})
      target_compile_definitions(${target} PUBLIC ONEFLOW_PROMOTE_HAVE_CUDA=1)
      target_compile_options(${target} PRIVATE
        $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr -O3>)
      set_target_properties(${target} PROPERTIES CUDA_STANDARD 17 CUDA_STANDARD_REQUIRED ON)
      target_link_libraries(${target} PRIVATE CUDA::cudart)
    else()
      target_compile_definitions(${target} PUBLIC ONEFLOW_PROMOTE_HAVE_CUDA=0)
    endif()
  endif()
endfunction()

# oneflow_promote_test(NAME SRCS src... DEPS target...): a GoogleTest binary.
# ctest runs it from the source root, where the committed data files
# (tests/literals/cases.tsv) are at the relative paths Bazel's runfiles give.
function(oneflow_promote_test name)
  if(NOT ONEFLOW_PROMOTE_TESTS)
    return()
  endif()
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SRCS;DEPS")
  add_executable(${name} ${arg_SRCS})
  # A test written in C (a C ABI's caller) has its own main.
  list(FILTER arg_SRCS INCLUDE REGEX "\\.c$")
  if(arg_SRCS)
    target_link_libraries(${name} PRIVATE ${arg_DEPS})
  else()
    target_link_libraries(${name} PRIVATE ${arg_DEPS} GTest::gtest_main)
  endif()
  target_compile_options(${name} PRIVATE -Wall)
  add_test(NAME ${name} COMMAND ${name} WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endfunction()

# oneflow_promote_sh_test(NAME SCRIPT [ARGS arg...] [ENV VAR=value...]): a
# shell test (Bazel's sh_test), also run from the source root.
function(oneflow_promote_sh_test name)
  if(NOT ONEFLOW_PROMOTE_TESTS)
    return()
  endif()
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "SCRIPT" "ARGS;ENV")
  add_test(NAME ${name} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/${arg_SCRIPT} ${arg_ARGS}
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  if(arg_ENV)
    set_tests_properties(${name} PROPERTIES ENVIRONMENT "${arg_ENV}")
  endif()
endfunction()
