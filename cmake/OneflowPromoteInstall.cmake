# The installed package: the targets' export set (each library installs
# itself and its headers in oneflow_promote_library), the CMake config and
# version files, and oneflow_promote.pc for pkg-config.

include(CMakePackageConfigHelpers)

set(_oneflow_promote_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/oneflow_promote)
install(EXPORT oneflow_promoteTargets
  NAMESPACE oneflow_promote::
  DESTINATION ${_oneflow_promote_cmake_dir})

# Static libraries carry cudart in their link interface (shared ones link it
# themselves), so only then must a consumer find the CUDA toolkit too.
if(ONEFLOW_PROMOTE_CUDA AND NOT BUILD_SHARED_LIBS)
  set(ONEFLOW_PROMOTE_CONFIG_NEEDS_CUDATOOLKIT TRUE)
else()
  set(ONEFLOW_PROMOTE_CONFIG_NEEDS_CUDATOOLKIT FALSE)
endif()
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/oneflow_promoteConfig.cmake.in
  ${PROJECT_BINARY_DIR}/oneflow_promoteConfig.cmake
  INSTALL_DESTINATION ${_oneflow_promote_cmake_dir})
# The same major version is the same SONAME (libX.so.0).
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/oneflow_promoteConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/oneflow_promoteConfig.cmake
  ${PROJECT_BINARY_DIR}/oneflow_promoteConfigVersion.cmake
  DESTINATION ${_oneflow_promote_cmake_dir})

# pkg-config: paths relative to the .pc file, so that the prefix given to
# `cmake --install --prefix` (not known when configuring) is right.
set(_oneflow_promote_pc_dir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH _oneflow_promote_pc_up /prefix/${_oneflow_promote_pc_dir} /prefix)
string(REGEX REPLACE "/$" "" _oneflow_promote_pc_up "${_oneflow_promote_pc_up}")
set(ONEFLOW_PROMOTE_PC_PREFIX "\${pcfiledir}/${_oneflow_promote_pc_up}")
# Dependents before their dependencies, for static linking.
set(ONEFLOW_PROMOTE_PC_LIBS)
foreach(lib functional op_kernels tensor op_rules cast cuda_device promotion dtype)
  string(APPEND ONEFLOW_PROMOTE_PC_LIBS " -loneflow_promote_${lib}")
endforeach()
set(_oneflow_promote_pc_system_libs "-pthread")
if(ONEFLOW_PROMOTE_CUDA)
  set(ONEFLOW_PROMOTE_HAVE_CUDA_VALUE 1)
  string(APPEND _oneflow_promote_pc_system_libs " -L${CUDAToolkit_LIBRARY_DIR} -lcudart")
else()
  set(ONEFLOW_PROMOTE_HAVE_CUDA_VALUE 0)
endif()
# Shared libraries bring their own; static ones need them on every link.
if(BUILD_SHARED_LIBS)
  set(ONEFLOW_PROMOTE_PC_LIBS_PRIVATE "${_oneflow_promote_pc_system_libs}")
else()
  string(APPEND ONEFLOW_PROMOTE_PC_LIBS " ${_oneflow_promote_pc_system_libs}")
  set(ONEFLOW_PROMOTE_PC_LIBS_PRIVATE "")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/oneflow_promote.pc.in
               ${PROJECT_BINARY_DIR}/oneflow_promote.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/oneflow_promote.pc DESTINATION ${_oneflow_promote_pc_dir})
