# What the benchmarks on real data share: 75 % of the rows to fit and 25 %
# to test, test rows with a level of a factor predictor the fit did not see
# dropped, and elapsed seconds. Sourced by bench/scale-search.R and
# bench/glm-scale.R from their own directory.

split_rows <- function(data, seed = 1) {
  set.seed(seed)
  test <- sample(nrow(data), round(nrow(data) / 4))
  train <- data[-test, ]
  holdout <- data[test, ]
  for (v in setdiff(names(data), "y")) {
    if (is.factor(data[[v]])) {
      train[[v]] <- droplevels(train[[v]])
      holdout <- holdout[holdout[[v]] %in% levels(train[[v]]), ]
      holdout[[v]] <- factor(holdout[[v]], levels = levels(train[[v]]))
    }
  }
  list(train = train, test = holdout)
}

seconds <- function(expr) system.time(expr)[["elapsed"]]
