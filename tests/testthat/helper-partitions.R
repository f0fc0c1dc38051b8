# What the clustering tests compare partitions with.

# The adjusted Rand index of two partitions (Hubert and Arabie 1985).
adjusted_rand <- function(a, b) {
  pairs <- function(v) sum(choose(v, 2))
  table_ab <- table(a, b)
  index <- pairs(table_ab)
  expected <- pairs(rowSums(table_ab)) * pairs(colSums(table_ab)) / choose(length(a), 2)
  largest <- (pairs(rowSums(table_ab)) + pairs(colSums(table_ab))) / 2
  (index - expected) / (largest - expected)
}
