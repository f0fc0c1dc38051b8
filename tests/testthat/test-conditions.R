# The package's conditions: each kind of error has its class, and every
# error names the call the user made that refused.

kind_of <- function(expr) {
  e <- tryCatch(expr, error = function(e) e)
  list(class = class(e)[1L], call = conditionCall(e), error = e)
}

test_that("each kind of error has its class, under askrff_error", {
  x <- matrix(stats::rnorm(20), 10)
  map <- rff_map(gaussian_kernel(1), 2, 4, seed = 1)
  edited <- map
  edited$omega <- "a"
  missing_x <- x
  missing_x[1L, 1L] <- NA
  cases <- list(
    askrff_invalid_argument = function() rff_glm(x, rep(0:1, 5), family = "foo", kernel = gaussian_kernel(1), n_features = 4),
    askrff_invalid_object = function() rff_features(edited, x),
    askrff_data_error = function() rff_ridge(missing_x, stats::rnorm(10), kernel = gaussian_kernel(1), n_features = 4),
    askrff_data_error = function() rff_glm(x, factor(rep("a", 10)), family = "multinomial", kernel = gaussian_kernel(1), n_features = 4),
    askrff_too_large = function() rff_map(gaussian_kernel(1), 1e9, 1e9),
    askrff_core_error = function() askrff:::core(stop("a refusal of the core"))
  )
  for (i in seq_along(cases)) {
    e <- kind_of(cases[[i]]())
    expect_identical(e$class, names(cases)[i], info = deparse(body(cases[[i]])))
    expect_s3_class(e$error, "askrff_error")
  }
  # an invalid object and a data error are invalid arguments too
  expect_s3_class(kind_of(rff_features(edited, x))$error, "askrff_invalid_argument")
  expect_s3_class(kind_of(rff_ridge(missing_x, stats::rnorm(10), kernel = gaussian_kernel(1), n_features = 4))$error,
                  "askrff_invalid_argument")
})

test_that("an error names the call the user made, the generic for a method, an argument's own call", {
  x <- matrix(stats::rnorm(20), 10)
  e <- kind_of(rff_glm(x, rep(0:1, 5), family = "foo", kernel = gaussian_kernel(1), n_features = 4))
  expect_identical(as.character(e$call[[1L]]), "rff_glm")
  # a constructor evaluated as another function's argument is the call that refused
  e <- kind_of(rff_map(gaussian_kernel(-1), 2, 4))
  expect_identical(e$call, quote(gaussian_kernel(-1)))
  expect_identical(e$class, "askrff_invalid_argument")
  fit <- rff_glm(x, stats::rpois(10, 2), family = "poisson", kernel = gaussian_kernel(1), n_features = 4, lambda = 1,
                 seed = 1)
  e <- kind_of(predict(fit, x, type = "class"))
  expect_identical(as.character(e$call[[1L]]), "predict")
  # from inside a user's function, the package's function is still the call
  e <- kind_of(lapply(1:2, function(i) kernel_matrix(gaussian_kernel(1), x, matrix(1, 2, 3))))
  expect_identical(as.character(e$call[[1L]]), "kernel_matrix")
  expect_identical(e$class, "askrff_data_error")
})

test_that("warnings have their class and the user's call", {
  # no fit of the tests stops short of convergence, so the mechanism is
  # tested here and the solver's warnings name it in R/model-glm-solver.R
  outer <- function() askrff:::warn("stopped after %d passes", 200L, class = "askrff_not_converged")
  w <- tryCatch(outer(), warning = function(w) w)
  expect_s3_class(w, "askrff_not_converged")
  expect_s3_class(w, "askrff_warning")
  expect_identical(conditionMessage(w), "stopped after 200 passes")
})

test_that("the messages of the common refusals read as they should", {
  x <- matrix(c(0.1, 0.4, -0.3, 0.8, 0.5, -0.2), 3)
  expect_snapshot(error = TRUE, {
    rff_map(gaussian_kernel(1), d = 0, n_features = 4)
    rff_glm(x, c(0, 1, 1), family = "binomial", map = "not a map")
    kernel_matrix(gaussian_kernel(1), x, matrix(1, 2, 3))
  })
})
