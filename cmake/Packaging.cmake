# What `cmake --install` puts under the prefix beyond the executables and samples (app/), and
# the Debian package CPack makes of it:
#   cpack --config build/CPackConfig.cmake -G DEB -B build/package
# gives build/package/linescope_<version>_<arch>.deb. Its dependencies are read off the
# binaries by dpkg-shlibdeps (Qt 6, OpenCV, OpenGL, as Debian names their libraries) plus the
# run-time pieces no binary links: Qt's X11/Wayland platform plugins and Mesa's drivers.
# A package built where nvcc was found carries the CUDA backend with the CUDA runtime linked
# statically: it loads the NVIDIA driver's libcuda at run time when there is one and runs on
# the CPU, saying so, when there is none.

set(LINESCOPE_APP_ID io.github.linescope.LineScope)
set(_linux ${PROJECT_SOURCE_DIR}/packaging/linux)
set(_icons ${PROJECT_SOURCE_DIR}/resources/icons)

# Desktop integration: launcher, AppStream metadata, icons, the image types it opens.
install(FILES ${_linux}/${LINESCOPE_APP_ID}.desktop DESTINATION share/applications)
install(FILES ${_linux}/${LINESCOPE_APP_ID}.metainfo.xml DESTINATION share/metainfo)
if(EXISTS ${_linux}/${LINESCOPE_APP_ID}-mime.xml)
  install(FILES ${_linux}/${LINESCOPE_APP_ID}-mime.xml DESTINATION share/mime/packages RENAME ${LINESCOPE_APP_ID}.xml)
endif()
foreach(size 16 22 24 32 48 64 128 256 512)
  install(FILES ${_icons}/hicolor/${size}x${size}/apps/${LINESCOPE_APP_ID}.png
          DESTINATION share/icons/hicolor/${size}x${size}/apps)
endforeach()
install(FILES ${_icons}/linescope.svg DESTINATION share/icons/hicolor/scalable/apps RENAME ${LINESCOPE_APP_ID}.svg)

# Man pages and Debian's changelog of a native package, compressed as Debian's policy wants
# them (-n: no timestamp, reproducible), installed from the build tree.
find_program(LINESCOPE_GZIP gzip REQUIRED)
set(_gzipped)
function(linescope_install_gzipped src destination)
  get_filename_component(_name ${src} NAME)
  set(_gz ${CMAKE_BINARY_DIR}/gzipped/${destination}/${_name}.gz)
  get_filename_component(_dir ${_gz} DIRECTORY)
  add_custom_command(OUTPUT ${_gz}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${_dir}
    COMMAND ${LINESCOPE_GZIP} -9n -c ${src} > ${_gz}
    DEPENDS ${src} VERBATIM)
  install(FILES ${_gz} DESTINATION ${destination})
  set(_gzipped ${_gzipped} ${_gz} PARENT_SCOPE)
endfunction()
linescope_install_gzipped(${PROJECT_SOURCE_DIR}/docs/man/linescope.1 share/man/man1)
linescope_install_gzipped(${PROJECT_SOURCE_DIR}/docs/man/linescope-cli.1 share/man/man1)
linescope_install_gzipped(${PROJECT_SOURCE_DIR}/packaging/debian/changelog share/doc/linescope)
add_custom_target(linescope_gzipped_docs ALL DEPENDS ${_gzipped})

# The user guide, the CLI reference and the definitions, with their screenshots.
install(FILES ${PROJECT_SOURCE_DIR}/packaging/debian/copyright DESTINATION share/doc/linescope)
# (Not the GPU machine's screenshots, which only the README shows, nor the tools.)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION share/doc/linescope
        FILES_MATCHING PATTERN "*.md" PATTERN "*.png"
        PATTERN "man" EXCLUDE PATTERN "tools" EXCLUDE PATTERN "images" EXCLUDE PATTERN "gpu-*" EXCLUDE)

# --- CPack: the .deb
set(CPACK_PACKAGE_NAME linescope)
set(CPACK_PACKAGE_VENDOR "The LineScope developers")
set(CPACK_PACKAGE_CONTACT "The LineScope developers <maintainers@linescope.example.org>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "explore linear morphology live: openings and orientations by line segments")
set(CPACK_PACKAGE_INSTALL_DIRECTORY linescope)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # linescope_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION graphics)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Loaded at run time, so dpkg-shlibdeps cannot see them: Qt's platform plugins (xcb, wayland)
# and an OpenGL driver (Mesa's; NVIDIA's driver brings its own).
set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins, libgl1, libegl1")
if(LINESCOPE_PYTHON)
  # The Python package (python/CMakeLists.txt says why these are named by hand).
  string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", ${LINESCOPE_PYTHON_DEB_DEPENDS}")
  set(_python_part "\nthe Python package for python3 (import linescope),")
else()
  set(_python_part "")
endif()
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libgl1-mesa-dri, qt6-wayland")
if(LINESCOPE_PYTHON)
  # linescope.dask imports dask only when it is used: `import linescope` works without it.
  string(APPEND CPACK_DEBIAN_PACKAGE_RECOMMENDS ", python3-dask, python3-distributed")
endif()
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "nvidia-driver")
if(LINESCOPE_HAVE_CUDA)
  # "75-real;90-virtual" -> "7.5, 9.0": the GPU generations this build's kernels run on.
  set(_ccs)
  foreach(arch ${CMAKE_CUDA_ARCHITECTURES})
    string(REGEX REPLACE "^([0-9]+)([0-9])(-.*)?$" "\\1.\\2" cc "${arch}")
    list(APPEND _ccs ${cc})
  endforeach()
  list(REMOVE_DUPLICATES _ccs)
  list(JOIN _ccs ", " _ccs)
  set(_backends "a CUDA backend for NVIDIA GPUs, used when the NVIDIA driver is\npresent (compute capability ${_ccs}), and a multi-threaded\nSIMD CPU backend, used otherwise")
else()
  set(_backends "a multi-threaded SIMD CPU backend (this build has no CUDA backend)")
endif()
# CPack puts the summary first and indents each line; an empty line becomes " .".
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "LineScope computes erosions, dilations, openings, closings and top-hats by a
digital line segment of any angle and length while you drag the sliders, and
shows the supremum of openings over all angles, colour-coded orientation maps,
angular spectra, the skew of scanned pages and music sheets, and contours
traced from the results.

It has ${_backends}.

The package holds the desktop application (linescope), the command line
(linescope-cli) with man pages,${_python_part}
sample images and the user guide.")
include(CPack)
