test_that("normalize_rows gives unit rows in the same directions", {
  x <- fixture_points(20, 5)
  rownames(x) <- paste0("p", 1:20)
  unit <- normalize_rows(x)
  expect_equal(rowSums(unit^2), stats::setNames(rep(1, 20), rownames(x)), tolerance = 1e-15)
  expect_equal(unit * sqrt(rowSums(x^2)), x, tolerance = 1e-14)
  expect_identical(dimnames(unit), dimnames(x))
  expect_equal(unname(normalize_rows(as.data.frame(x))), unname(unit))
})

test_that("normalize_rows survives extreme scales and rejects zero rows", {
  x <- rbind(c(3e200, 4e200), c(3e-200, 4e-200))
  expect_equal(normalize_rows(x), rbind(c(0.6, 0.8), c(0.6, 0.8)), tolerance = 1e-15)
  expect_error(normalize_rows(rbind(c(1, 2), c(0, 0))), "`x` has a row of zeros \\(row 2\\)")
  expect_error(normalize_rows(matrix(c(1, NA), 1)), "`x` must not contain NA")
})
