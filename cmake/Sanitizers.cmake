# ASan + UBSan for the whole build when LINESCOPE_SANITIZE is on (CI runs the engine tests so).
if(LINESCOPE_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
