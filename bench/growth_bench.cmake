# mk_growth_bench: the growth-distance table (issue 6). Standalone: include this
# file from bench/CMakeLists.txt (include(${CMAKE_CURRENT_SOURCE_DIR}/growth_bench.cmake)).
add_executable(mk_growth_bench ${CMAKE_CURRENT_LIST_DIR}/growth_bench.c)
target_link_libraries(mk_growth_bench PRIVATE minkowski_core PkgConfig::QHULL_R m)
