// Renders the README picture (the seed layout's A tile, rows 0..31, one cell
// per lane's run) in a real headless browser and checks the screenshot: a
// PNG of the window's size that shows a picture. CI installs chromium
// (scripts/deps.sh); without it this test is unsupported.
// REQUIRES: chromium

// RUN: mx-layout --layout='#mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_m = 16, intrinsics_n = 4, intrinsics_k = 2, subgroups_n = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>' \
// RUN:   --operand=lhs --cells=lane --rows=0:32 --format=svg -o %t.svg
// RUN: rm -rf %t.profile %t.png
// RUN: timeout 300 chromium --headless --disable-gpu --no-sandbox \
// RUN:   --user-data-dir=%t.profile --hide-scrollbars \
// RUN:   --screenshot=%t.png --window-size=1130,620 file://%t.svg > %t.log 2>&1
// RUN: python3 %S/Inputs/check_png.py %t.png 1130 620 | FileCheck %s
// CHECK: png ok: 1130 x 620
