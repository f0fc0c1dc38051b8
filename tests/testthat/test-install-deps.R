# tools/install-deps.R, the installer of make demo and make test, on a
# machine whose libraries already hold an older copy of a dependency, as
# Debian's R holds rlang 1.0.6 for testthat: the installer must upgrade it,
# install only what it is asked for, and report success. It is run as a user
# runs it, in a child R, on packages made here and served from a local
# repository, so no network is needed.

fake_package <- function(root, name, version, imports = NULL, code = "answer <- function() 42") {
  path <- file.path(root, "sources", paste0(name, "-", version), name)
  dir.create(file.path(path, "R"), recursive = TRUE)
  writeLines(c(sprintf("Package: %s", name), sprintf("Version: %s", version), "Title: A Fake Package for a Test",
               "Description: Serves the installer's test.", "License: GPL-2", "Authors@R: person('a', 'b', role = c('aut', 'cre'), email = 'a@b.c')",
               if (!is.null(imports)) sprintf("Imports: %s", imports)),
             file.path(path, "DESCRIPTION"))
  writeLines(c("export(answer)", if (!is.null(imports)) sprintf("import(%s)", sub(" .*", "", imports))),
             file.path(path, "NAMESPACE"))
  writeLines(code, file.path(path, "R", "answer.R"))
  owd <- setwd(dirname(path))
  on.exit(setwd(owd))
  status <- system2(file.path(R.home("bin"), "R"), c("CMD", "build", "--no-manual", name), stdout = FALSE, stderr = FALSE)
  stopifnot(status == 0L)
  file.path(dirname(path), sprintf("%s_%s.tar.gz", name, version))
}

run_r <- function(args, env, wd) {
  owd <- setwd(wd)
  on.exit(setwd(owd))
  output <- suppressWarnings(system2(file.path(R.home("bin"), "Rscript"), args, stdout = TRUE, stderr = TRUE, env = env))
  list(status = if (is.null(attr(output, "status"))) 0L else attr(output, "status"), output = output)
}

test_that("install-deps.R upgrades an older installed dependency, installs Suggests only when asked, and checks loading afresh", {
  skip_on_cran()
  skip_if(nzchar(Sys.getenv("ASKRFF_SANITIZE")), "an R script: no C++ for the sanitizers to watch")
  root <- package_source()
  script <- if (is.null(root)) "" else file.path(root, "tools", "install-deps.R")
  skip_if(!file.exists(script), "the package's source tree is not at hand")
  work <- tempfile("install-deps-")
  dir.create(work)
  on.exit(unlink(work, recursive = TRUE), add = TRUE)

  # fakedep 1.0.0 in an old library (Debian's rlang); the repository offers
  # fakedep 2.0.0, fakeuser (which needs fakedep >= 2.0.0, as dials needs a
  # newer rlang) and fakeextra.
  old_dep <- fake_package(work, "fakedep", "1.0.0")
  contrib <- file.path(work, "repo", "src", "contrib")
  dir.create(contrib, recursive = TRUE)
  file.copy(c(fake_package(work, "fakedep", "2.0.0", code = "answer <- function() 2"),
              fake_package(work, "fakeuser", "1.0.0", imports = "fakedep (>= 2.0.0)",
                           code = "answer <- function() fakedep::answer()"),
              fake_package(work, "fakeextra", "1.0.0")), contrib)
  tools::write_PACKAGES(contrib, type = "source")
  libraries <- file.path(work, c("new-library", "old-library"))
  for (library in libraries) dir.create(library)
  stopifnot(system2(file.path(R.home("bin"), "R"), c("CMD", "INSTALL", "-l", libraries[2], old_dep),
                    stdout = FALSE, stderr = FALSE) == 0L)

  # A project that imports fakeuser and suggests fakedep (as askrff suggests
  # rlang) and fakeextra; the child R installs into the new library, first
  # on its path, from the local repository.
  project <- file.path(work, "project")
  dir.create(project)
  writeLines(c("Package: probe", "Version: 0.1", "Imports: fakeuser", "Suggests: fakedep, fakeextra"),
             file.path(project, "DESCRIPTION"))
  profile <- file.path(work, "Rprofile")
  writeLines(sprintf("options(repos = c(LOCAL = '%s'))", paste0("file://", normalizePath(file.path(work, "repo")))),
             profile)
  env <- c(sprintf("R_LIBS=%s", paste(libraries, collapse = .Platform$path.sep)), sprintf("R_PROFILE_USER=%s", profile),
           "MAKEFLAGS=")
  installed <- function() {
    index <- installed.packages(lib.loc = libraries, noCache = TRUE)
    stats::setNames(index[, "Version"], paste(basename(index[, "LibPath"]), index[, "Package"]))
  }

  runtime <- run_r(c(script, "--runtime"), env, project)
  expect_identical(runtime$status, 0L, info = paste(runtime$output, collapse = "\n"))
  expect_identical(installed()[c("new-library fakedep", "new-library fakeuser")], c(`new-library fakedep` = "2.0.0", `new-library fakeuser` = "1.0.0"))
  expect_false("new-library fakeextra" %in% names(installed()))

  everything <- run_r(script, env, project)
  expect_identical(everything$status, 0L, info = paste(everything$output, collapse = "\n"))
  expect_true("new-library fakeextra" %in% names(installed()))
  expect_match(everything$output, "Installing: fakeextra$", all = FALSE)

  # Nothing is left to install, and a new R loads the upgraded chain.
  again <- run_r(script, env, project)
  expect_identical(again$status, 0L)
  expect_false(any(grepl("Installing", again$output)))
  loaded <- run_r(c("-e", shQuote("cat(fakeuser::answer())")), env, project)
  expect_identical(loaded$output, "2")
})
