# Two commands do all set-up on a fresh machine: `make demo` and `make test`.
# Both first install whatever DESCRIPTION asks for that is missing: the demo
# what the package needs to build and run (Imports, LinkingTo), the tests
# Suggests as well.
R ?= R
RSCRIPT ?= Rscript
PKG := askrff
VERSION := $(shell sed -n 's/^Version: *//p' DESCRIPTION)
TARBALL := $(PKG)_$(VERSION).tar.gz
# Every compile of askrff runs on all cores: R CMD INSTALL (and the installs
# inside R CMD build and check) runs make, which is serial without -j.
JOBS := $(shell getconf _NPROCESSORS_ONLN 2> /dev/null || echo 2)
PARALLEL := MAKEFLAGS=-j$(JOBS)

.PHONY: deps runtime-deps install demo test cran sanitize clang cross docs site bench clean

deps:
	$(RSCRIPT) tools/install-deps.R

runtime-deps:
	$(RSCRIPT) tools/install-deps.R --runtime

# Installs from the built tarball, as a user's R CMD INSTALL of it would, so
# the vignettes are built and installed too.
install: deps
	rm -f $(TARBALL)
	$(PARALLEL) $(R) CMD build .
	$(PARALLEL) $(R) CMD INSTALL --preclean $(TARBALL)

# Installs from the sources without building the vignettes, which need the
# Suggests; make install and make test build them.
demo: runtime-deps
	$(PARALLEL) $(R) CMD INSTALL --preclean .
	$(RSCRIPT) -e 'demo("askrff", package = "askrff", ask = FALSE, echo = FALSE)'

# check-summary.R fails the build on any ERROR or WARNING of R CMD check, and
# prints the test counts and, last (where a CI log's tail shows it), every
# failed test. R CMD build has built the vignettes, running their code (a
# vignette that fails stops the build), so check does not run it again.
# NOT_CRAN=true runs the long statistical tests that CRAN's check skips;
# TESTTHAT_PARALLEL=TRUE runs the test files in as many processes as cores
# (DESCRIPTION's Config/testthat/start-first names the longest, started
# first); CRAN's check runs them in one.
test: deps
	rm -rf $(PKG).Rcheck $(TARBALL)
	$(PARALLEL) $(R) CMD build .
	$(PARALLEL) NOT_CRAN=true TESTTHAT_PARALLEL=TRUE TESTTHAT_CPUS=$(JOBS) _R_CHECK_FORCE_SUGGESTS_=true $(R) CMD check --no-manual --no-vignettes $(TARBALL) || true
	$(RSCRIPT) tools/check-summary.R $(PKG).Rcheck

# The check CRAN runs on a submission (the long tests skipped, at most two
# threads); its log is $(PKG).Rcheck/00check.log.
cran: deps
	rm -rf $(PKG).Rcheck $(TARBALL)
	$(PARALLEL) $(R) CMD build .
	$(PARALLEL) $(R) CMD check --as-cran $(TARBALL) || true
	$(RSCRIPT) tools/check-summary.R $(PKG).Rcheck

# The test suite on a build with AddressSanitizer and UndefinedBehaviorSanitizer;
# fails on any report (tools/sanitize.sh).
sanitize: deps
	$(PARALLEL) bash tools/sanitize.sh

# The build with clang and libc++ (the macOS toolchain), loaded and smoke
# tested (tools/clang-build.sh), and the core compiled for ARM64 and Windows
# by cross compilers, without linking (tools/cross-check.sh). Both install
# Debian's compilers when they are missing.
clang: runtime-deps
	$(PARALLEL) bash tools/clang-build.sh

cross: runtime-deps
	bash tools/cross-check.sh

# Regenerates RcppExports, NAMESPACE and man/ after a change to roxygen comments or exports.
docs:
	$(RSCRIPT) tools/install-deps.R --dev
	$(RSCRIPT) -e 'Rcpp::compileAttributes("."); roxygen2::roxygenise(".")'

# The pkgdown site in docs/ (not part of test): installs what
# Config/Needs/website asks for (pkgdown; on Debian its dependencies compile
# against libcurl4-openssl-dev, libssl-dev, libfontconfig1-dev,
# libfreetype6-dev, libharfbuzz-dev, libfribidi-dev, libpng-dev, libtiff-dev,
# libjpeg-dev and libwebp-dev) and needs pandoc to render the articles.
# pkgdown fetches its pages' scripts (headroom, bootstrap-toc, clipboard.js,
# fuse.js, autocomplete.js, mark.js) from their CDNs into its cache
# (tools::R_user_dir("pkgdown", "cache")) the first time; the pages load
# KaTeX from a CDN when read.
site:
	@command -v pandoc > /dev/null 2>&1 || [ -n "$$RSTUDIO_PANDOC" ] || { \
	  echo "make site needs pandoc, which renders the articles, and none is on the PATH:" >&2; \
	  echo "install it with your system's package manager (Debian and Ubuntu: apt-get install pandoc;" >&2; \
	  echo "macOS: brew install pandoc), or set RSTUDIO_PANDOC to the folder of RStudio's pandoc." >&2; \
	  exit 1; }
	$(RSCRIPT) tools/install-deps.R --site
	rm -rf docs
	$(RSCRIPT) -e 'pkgdown::build_site(".", preview = FALSE)'

# hardware.R and peers.R compare with numpy, scikit-learn and R on OpenBLAS
# (Debian's python3-sklearn and libopenblas0-pthread); peers.R takes about
# 40 minutes on two cores.
bench: install
	$(RSCRIPT) bench/features.R
	$(RSCRIPT) bench/periodic.R
	$(RSCRIPT) bench/maps.R
	$(RSCRIPT) bench/lp.R
	$(RSCRIPT) bench/nystrom.R
	$(RSCRIPT) bench/hardware.R
	$(RSCRIPT) bench/peers.R

clean:
	rm -rf $(PKG).Rcheck $(PKG).sanitize $(PKG).clang $(PKG)_*.tar.gz askrff-demo.png docs
	sh ./cleanup
