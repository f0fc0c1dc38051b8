# Installs what DESCRIPTION asks for that is missing or too old, from the
# repositories R is configured with, and checks in a fresh R session that it
# loads.
#   (no flag)   Depends, Imports, LinkingTo and Suggests: what make test needs
#   --runtime   Depends, Imports and LinkingTo only: what make demo needs
#   --dev       also the tools that regenerate man/ and NAMESPACE
#   --site      also what the pkgdown site needs (Config/Needs/website)
#
# No package namespace is loaded into this session: a namespace loaded before
# an upgrade (Debian's rlang under testthat, say) stays loaded, and every
# package that needs the newer one would then look uninstallable. Versions
# are read from the libraries' DESCRIPTION files instead, and the closure of
# requirements is followed through them and the repositories' index, so a
# dependency that is installed but older than a new package needs is
# upgraded, in the same install.packages() call, which installs it first.
args <- commandArgs(trailingOnly = TRUE)
unknown <- setdiff(args, c("--runtime", "--dev", "--site"))
if (length(unknown) > 0) stop("unknown argument: ", paste(unknown, collapse = ", "), call. = FALSE)

hard_fields <- c("Depends", "Imports", "LinkingTo")

# One row per requirement in a DESCRIPTION field: name, operator, version.
parse_requirements <- function(text) {
  entries <- trimws(unlist(strsplit(paste(text[!is.na(text)], collapse = ","), ",")))
  entries <- entries[nzchar(entries)]
  pattern <- "^([A-Za-z][A-Za-z0-9.]*)\\s*(\\(\\s*([<>=!]+)\\s*([^)[:space:]]+)\\s*\\))?.*$"
  data.frame(name = sub(pattern, "\\1", entries),
             op = ifelse(grepl("\\(", entries), sub(pattern, "\\3", entries), NA),
             version = ifelse(grepl("\\(", entries), sub(pattern, "\\4", entries), NA),
             stringsAsFactors = FALSE)
}

satisfies <- function(version, op, wanted) {
  vapply(seq_along(version), function(i) {
    if (is.na(version[i])) return(FALSE)
    if (is.na(op[i])) return(TRUE)
    do.call(op[i], list(package_version(version[i]), package_version(wanted[i])))
  }, logical(1))
}

desc <- read.dcf("DESCRIPTION")
fields <- c(hard_fields, if (!"--runtime" %in% args) "Suggests",
            if ("--site" %in% args) "Config/Needs/website")
declared <- parse_requirements(desc[1, intersect(fields, colnames(desc))])
if ("--dev" %in% args) declared <- rbind(declared, parse_requirements("roxygen2"))
base <- c("R", rownames(installed.packages(priority = "base")))
declared <- declared[!declared$name %in% base, ]

# The installed copy that library() would load: the first along .libPaths().
installed_index <- function() {
  index <- installed.packages(lib.loc = .libPaths(), noCache = TRUE)
  index[!duplicated(index[, "Package"]), , drop = FALSE]
}

repository <- NULL
repository_index <- function() {
  if (is.null(repository)) repository <<- available.packages()
  repository
}

# What has to be installed: every package some requirement in the closure
# finds missing or too old. A package kept as installed brings its installed
# requirements, one to be installed those of the repository's version, so the
# set grows until no requirement it reaches is unmet.
to_install <- function(declared, installed) {
  chosen <- character()
  repeat {
    requirements <- declared
    queue <- unique(declared$name)
    seen <- character()
    while (length(queue) > 0) {
      name <- queue[1]
      queue <- queue[-1]
      if (name %in% c(seen, base)) next
      seen <- c(seen, name)
      source <- if (name %in% chosen) repository_index() else installed
      if (!name %in% rownames(source)) next
      more <- parse_requirements(source[name, intersect(hard_fields, colnames(source))])
      more <- more[!more$name %in% base, ]
      requirements <- rbind(requirements, more)
      queue <- c(queue, more$name)
    }
    version <- installed[match(requirements$name, installed[, "Package"]), "Version"]
    unmet <- !satisfies(version, requirements$op, requirements$version)
    grown <- union(chosen, requirements$name[unmet])
    if (length(grown) == length(chosen)) return(list(names = chosen, requirements = requirements))
    chosen <- grown
  }
}

plan <- to_install(declared, installed_index())
if (length(plan$names) > 0) {
  index <- repository_index()
  absent <- setdiff(plan$names, rownames(index))
  if (length(absent) > 0) {
    stop("not available for R ", getRversion(), " from the configured repositories (",
         paste(getOption("repos"), collapse = ", "), "): ", paste(absent, collapse = ", "), call. = FALSE)
  }
  wanted <- plan$requirements[plan$requirements$name %in% plan$names, ]
  offered <- index[wanted$name, "Version"]
  too_old <- !satisfies(offered, wanted$op, wanted$version)
  if (any(too_old)) {
    stop("the configured repositories offer only ",
         paste(sprintf("%s %s (%s %s needed)", wanted$name, offered, wanted$op, wanted$version)[too_old], collapse = ", "),
         call. = FALSE)
  }
  message("Installing: ", paste(sort(plan$names), collapse = ", "))
  cores <- max(1L, parallel::detectCores())
  # Parallel make inside each package as well: highs compiles the HiGHS
  # solver, about 15 minutes on one core, often alone at the end.
  # install.packages() clears MAKEFLAGS for each package when Ncpus > 1, and
  # runs MAKE as one word, so MAKE names a wrapper that adds -j.
  if (.Platform$OS.type == "unix" && Sys.getenv("MAKE") %in% c("", "make")) {
    wrapper <- file.path(tempdir(), "make")
    writeLines(c("#!/bin/sh", sprintf('exec make -j%d "$@"', cores)), wrapper)
    Sys.chmod(wrapper, "755")
    Sys.setenv(MAKE = wrapper)
  }
  utils::install.packages(plan$names, Ncpus = cores, dependencies = FALSE)
}

# The check that counts: every declared requirement met in the libraries, and
# every declared package loading in a new R session, where nothing is loaded
# from before the installation.
left <- to_install(declared, installed_index())$names
if (length(left) > 0) stop("could not install: ", paste(sort(left), collapse = ", "), call. = FALSE)
names <- unique(declared$name)
probe <- sprintf("for (p in c(%s)) if (!requireNamespace(p, quietly = TRUE)) cat(p, '\\n')",
                 paste(sprintf("'%s'", names), collapse = ", "))
broken <- system2(file.path(R.home("bin"), "Rscript"), c("-e", shQuote(probe)), stdout = TRUE)
broken <- trimws(broken[nzchar(trimws(broken))])
if (length(broken) > 0) stop("installed but failing to load: ", paste(broken, collapse = ", "), call. = FALSE)
