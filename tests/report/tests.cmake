# simfab report (issue 10): the HTML report, generated from `simfab run --trace-out` and opened in
# headless Chromium through playwright-core (web/node_modules): every chart must render offline,
# without console errors; screenshots land in the build directory (report-screenshot.png,
# report-compare-screenshot.png) as CI artifacts. Skipped (77) without chromium or web/node_modules.
add_test(NAME html_report
         COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/report/run_report.py
                 $<TARGET_FILE:simfab> ${PROJECT_SOURCE_DIR} ${CMAKE_BINARY_DIR})
set_tests_properties(html_report PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77)
