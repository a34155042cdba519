# simfab report (issue 10): the HTML report, generated from `simfab run --trace-out` and opened in
# headless Chromium through playwright-core (web/node_modules): every chart must render offline,
# without console errors; screenshots land in the build directory (report-screenshot.png,
# report-compare-screenshot.png) as CI artifacts. Skipped (77) without chromium or web/node_modules.
# The sanitizer build checks simfab report's own code and leaves the browser to the optimised one.
if(SIMFAB_SANITIZE)
  set(SIMFAB_REPORT_TEST_MODE --no-browser)
endif()
add_test(NAME html_report
         COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/report/run_report.py
                 $<TARGET_FILE:simfab> ${PROJECT_SOURCE_DIR} ${CMAKE_BINARY_DIR} ${SIMFAB_REPORT_TEST_MODE})
set_tests_properties(html_report PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77)
