"""Time until a page is usable in headless Chromium (Selenium, Debian's chromium-driver).

Usage: page_ready.py URL CSS_SELECTOR COUNT
Prints the milliseconds from asking for the page to the moment COUNT elements match the
selector (the rows are there and the page answers), best of three fresh loads.
"""
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

url, selector, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
options = Options()
options.binary_location = "/usr/bin/chromium"
for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
    options.add_argument(flag)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
best = None
try:
    for _ in range(3):
        driver.get("about:blank")
        started = time.perf_counter()
        driver.get(url)
        while driver.execute_script("return document.querySelectorAll(arguments[0]).length", selector) < count:
            if time.perf_counter() - started > 60:
                sys.exit("the page never showed %d %s" % (count, selector))
            time.sleep(0.01)
        elapsed = (time.perf_counter() - started) * 1000
        best = elapsed if best is None else min(best, elapsed)
finally:
    driver.quit()
print("%.0f" % best)
