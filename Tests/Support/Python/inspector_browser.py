"""Drives the live inspector page in Chromium through Selenium (Debian's chromium-driver).

Usage: inspector_browser.py PAGE_URL EXPECTED_ROWS SCREENSHOT [LATER_URL]
Waits until the page shows EXPECTED_ROWS rows pushed by the server; with LATER_URL, then
requests it (as curl would, outside the page) and measures how long its row takes to appear,
without a reload. Clicks the first unmatched row, filters, presses Reset, and prints one JSON
object: the rows' texts, the report shown, the state line, the answer to Reset, the push time,
and how many elements came from values. With more than 50 rows, only the first and last five
rows' texts are read (each is a round trip to the browser), and the counts are given.
"""
import urllib.request
import json
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

url, expected, screenshot = sys.argv[1], int(sys.argv[2]), sys.argv[3]
later = sys.argv[4] if len(sys.argv) > 4 else None
options = Options()
options.binary_location = "/usr/bin/chromium"
for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1300,800"):
    options.add_argument(flag)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
try:
    driver.get(url)
    deadline = time.time() + 20
    rows = []
    count = lambda: driver.execute_script("return document.querySelectorAll('#rows tr').length")
    while time.time() < deadline:
        if count() >= expected:
            break
        time.sleep(0.1)
    rows = driver.find_elements(By.CSS_SELECTOR, "#rows tr")
    push_ms = None
    if later:
        before = len(rows)
        started = time.time()
        try:
            urllib.request.urlopen(later, timeout=5).read()
        except Exception:
            pass  # an unmatched request answers 404; its row is what counts
        while time.time() - started < 10:
            if count() > before:
                push_ms = round((time.time() - started) * 1000)
                break
            time.sleep(0.02)
        rows = driver.find_elements(By.CSS_SELECTOR, "#rows tr")
    texts = [row.text for row in (rows if len(rows) <= 50 else rows[:5] + rows[-5:])]
    unmatched = driver.find_elements(By.CSS_SELECTOR, "#rows tr.unmatched")
    report = ""
    if unmatched:
        unmatched[0].click()
        report = driver.find_element(By.ID, "reportText").text
    driver.find_element(By.ID, "filter").send_keys("unmatched")
    visible_count = driver.execute_script("return [...document.querySelectorAll('#rows tr')].filter(r => !r.hidden).length")
    visible = [row.text for row in driver.find_elements(By.CSS_SELECTOR, "#rows tr") if row.is_displayed()] if len(rows) <= 50 else []
    driver.find_element(By.ID, "reset").click()
    message = ""
    deadline = time.time() + 10
    while time.time() < deadline and not message:
        message = driver.find_element(By.ID, "message").text
        time.sleep(0.1)
    driver.save_screenshot(screenshot)
    print(json.dumps({
        "rows": texts,
        "count": len(rows),
        "visibleAfterFilter": visible,
        "visibleCount": visible_count,
        "report": report,
        "state": driver.find_element(By.ID, "state").text,
        "reset": message,
        "pushMs": push_ms,
        "images": len(driver.find_elements(By.TAG_NAME, "img")),
    }))
finally:
    driver.quit()
