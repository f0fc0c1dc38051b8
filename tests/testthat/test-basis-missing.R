# rff_basis() with missing values: rows with an NA give NA features, so
# lm()'s na.action and predict() treat them as splines::ns() does.

test_that("rows with a missing value give NA features and lm() drops or pads them like ns()", {
  air <- datasets::airquality
  term <- quote(rff_basis(Solar.R, Wind, Temp, kernel = gaussian_kernel(1.5), n_features = 16, standardize = TRUE,
                          seed = 1))
  fit <- lm(bquote(Ozone ~ .(term)), data = air)
  reference <- lm(Ozone ~ splines::ns(Solar.R, 3) + Wind + Temp, data = air)
  expect_equal(nobs(fit), nobs(reference))
  expect_equal(nobs(fit), 111L)
  excluded <- lm(bquote(Ozone ~ .(term)), data = air, na.action = na.exclude)
  expect_length(fitted(excluded), nrow(air))
  expect_identical(which(is.na(fitted(excluded))), which(is.na(fitted(lm(Ozone ~ splines::ns(Solar.R, 3) + Wind + Temp,
                                                                          data = air, na.action = na.exclude)))))
  predicted <- predict(fit, air)
  missing_predictor <- !stats::complete.cases(air[, c("Solar.R", "Wind", "Temp")])
  expect_true(all(is.na(predicted[missing_predictor])))
  expect_true(all(is.finite(predicted[!missing_predictor])))
  # the complete rows' features, with the standardization of the complete rows
  basis <- model.frame(fit)[[2]]
  x <- as.matrix(air[stats::complete.cases(air[, c("Ozone", "Solar.R", "Wind", "Temp")]), c("Solar.R", "Wind", "Temp")])
  expect_equal(unname(predict(fit, air[!missing_predictor, ][1:3, ])), unname(predicted[!missing_predictor][1:3]))
  scaling <- attr(basis, "standardize")
  complete_x <- as.matrix(air[!missing_predictor, c("Solar.R", "Wind", "Temp")])
  expect_equal(unname(scaling$center), unname(colMeans(complete_x)))
  expect_equal(nrow(basis), nrow(x))
})

test_that("an NA row of a basis is NA in every column and the other rows are unchanged", {
  x1 <- c(0.1, NA, 0.5, 0.7)
  x2 <- c(1, 2, NaN, 4)
  z <- rff_basis(x1, x2, kernel = gaussian_kernel(1), n_features = 4, seed = 2)
  expect_true(all(is.na(z[2:3, ])))
  map <- attr(z, "map")
  expect_equal(unname(z[c(1, 4), ]), unname(rff_features(map, cbind(x1, x2)[c(1, 4), ])), tolerance = 1e-15)
})

test_that("errors name the variable by its expression", {
  air <- datasets::airquality
  expect_error(rff_basis(air$Wind, as.character(air$Temp), kernel = gaussian_kernel(1), n_features = 4),
               "Variable `as.character\\(air\\$Temp\\)`", class = "askrff_error")
  expect_error(rff_basis(air$Wind, log(air$Temp)[-1], kernel = gaussian_kernel(1), n_features = 4),
               "`log\\(air\\$Temp\\)\\[-1\\]` has 152", class = "askrff_error")
  expect_error(rff_basis(c(1, Inf), kernel = gaussian_kernel(1), n_features = 4), "Variable `c\\(1, Inf\\)`.*infinite",
               class = "askrff_error")
  expect_error(rff_basis(c(NA_real_, NA), kernel = gaussian_kernel(1), n_features = 4), "No row of the variables of `...`", class = "askrff_error")
  expect_error(rff_basis(wind = rep(1, 4), kernel = gaussian_kernel(1), n_features = 4, standardize = TRUE),
               "constant.*`wind`", class = "askrff_error")
})
