"""Drives the cassette viewer (`tapedeck cassette view`) in Chromium through Selenium.

Usage: viewer_browser.py PAGE_URL SCREENSHOT
Clicks the row of interaction 2 and reads whether the interaction it shows is in the window;
then changes the address in the tab to `#status=4xx&show=1` and reads the count and what is
shown; then types into the text filter and reads the count once it has applied. Prints one
JSON object.
"""
import json
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

url, screenshot = sys.argv[1], sys.argv[2]
options = Options()
options.binary_location = "/usr/bin/chromium"
for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1300,800"):
    options.add_argument(flag)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
result = {}
try:
    driver.get(url)
    driver.find_element(By.CSS_SELECTOR, '#rows .tr[data-index="2"]').click()
    time.sleep(0.3)
    result["clicked"] = driver.find_element(By.CSS_SELECTOR, "#detail h2").text
    result["clickedInWindow"] = driver.execute_script(
        "const r = document.getElementById('detail').getBoundingClientRect(); return r.top >= 0 && r.top < window.innerHeight;")
    result["address"] = driver.execute_script("return location.hash")
    driver.save_screenshot(screenshot)
    driver.execute_script("location.hash = '#status=4xx&show=1'")
    time.sleep(0.3)
    result["afterHashCount"] = driver.find_element(By.ID, "count").text
    result["afterHashShown"] = driver.find_element(By.CSS_SELECTOR, "#detail h2").text
    driver.execute_script("location.hash = ''")
    time.sleep(0.2)
    box = driver.find_element(By.ID, "text")
    box.send_keys("row-1")
    time.sleep(0.6)
    result["typedCount"] = driver.find_element(By.ID, "count").text
    result["focusable"] = driver.execute_script("return document.querySelector('#rows .tr').tabIndex")
finally:
    driver.quit()
print(json.dumps(result))
