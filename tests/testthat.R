library(testthat)
library(askrff)

test_check("askrff")
