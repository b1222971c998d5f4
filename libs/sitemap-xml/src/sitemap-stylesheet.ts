// The XSLT a browser applies to a sitemap or sitemap index that names it
// (`<?xml-stylesheet type="text/xsl" href="sitemap.xsl"?>`, see namespaces.ts): a readable,
// sortable table of URLs with lastmod, changefreq, priority, hreflang alternates and images, or of
// an index's sitemaps. Crawlers never fetch it. XSLT 1.0, the version browsers implement; the
// sorting is a few lines of script in the page it produces, on buttons in the column headers.
export const SITEMAP_STYLESHEET = `<?xml version="1.0" encoding="UTF-8"?>
<xsl:stylesheet version="1.0"
  xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
  xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"
  xmlns:xhtml="http://www.w3.org/1999/xhtml"
  xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"
  xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"
  xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"
  exclude-result-prefixes="sm xhtml image video news">
  <xsl:output method="html" encoding="UTF-8" indent="yes" doctype-system="about:legacy-compat"/>

  <xsl:template match="/">
    <html lang="en">
      <head>
        <meta charset="utf-8"/>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <meta name="robots" content="noindex"/>
        <title><xsl:choose><xsl:when test="sm:sitemapindex">Sitemap index</xsl:when><xsl:otherwise>Sitemap</xsl:otherwise></xsl:choose></title>
        <style>
          :root { color-scheme: light; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1b1f24; background: #fff; }
          body { margin: 0 auto; padding: 1.25rem; max-width: 80rem; }
          h1 { font-size: 1.4rem; margin: 0 0 .25rem; }
          p.summary { margin: 0 0 1rem; color: #454c55; }
          .scroll { overflow-x: auto; }
          table { border-collapse: collapse; width: 100%; }
          th, td { text-align: left; vertical-align: top; padding: .45rem .6rem; border-bottom: 1px solid #d5d9de; }
          th { background: #f3f5f7; position: sticky; top: 0; }
          th button { font: inherit; font-weight: 600; color: inherit; text-align: left; background: none; border: 0; padding: 0; cursor: pointer; }
          th button:focus-visible { outline: 2px solid #0b57d0; outline-offset: 2px; }
          th[aria-sort="ascending"] button::after { content: " \\25B2"; }
          th[aria-sort="descending"] button::after { content: " \\25BC"; }
          td.loc { word-break: break-all; }
          a { color: #0b57d0; }
          ul { margin: 0; padding-left: 1rem; }
          .lang { display: inline-block; min-width: 3.5em; font-family: ui-monospace, monospace; color: #454c55; }
          .num { text-align: right; white-space: nowrap; }
          .muted { color: #5f6670; }
          footer { margin-top: 1rem; color: #5f6670; font-size: .85rem; }
        </style>
      </head>
      <body>
        <main>
          <xsl:apply-templates select="sm:sitemapindex|sm:urlset"/>
        </main>
        <footer>This page is the sitemap itself, shown with a stylesheet for people. Crawlers read the XML.</footer>
        <script>
          document.querySelectorAll('table.sortable').forEach(function (table) {
            var headers = table.querySelectorAll('th');
            headers.forEach(function (th, column) {
              var button = th.querySelector('button');
              if (!button) return;
              button.addEventListener('click', function () {
                var ascending = th.getAttribute('aria-sort') !== 'ascending';
                headers.forEach(function (other) { other.removeAttribute('aria-sort'); });
                th.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
                var body = table.tBodies[0];
                var rows = Array.prototype.slice.call(body.rows);
                var key = function (row) { var cell = row.cells[column]; return cell.getAttribute('data-sort') || cell.textContent.trim(); };
                var numeric = th.hasAttribute('data-numeric');
                rows.sort(function (a, b) {
                  var x = key(a), y = key(b);
                  var order = numeric ? (parseFloat(x) || 0) - (parseFloat(y) || 0) : x.localeCompare(y);
                  return ascending ? order : -order;
                });
                rows.forEach(function (row) { body.appendChild(row); });
              });
            });
          });
        </script>
      </body>
    </html>
  </xsl:template>

  <xsl:template match="sm:sitemapindex">
    <h1>Sitemap index</h1>
    <p class="summary"><xsl:value-of select="count(sm:sitemap)"/> sitemaps</p>
    <div class="scroll">
      <table class="sortable">
        <caption class="muted" style="text-align:left">Select a column heading to sort</caption>
        <thead><tr>
          <th scope="col"><button type="button">Sitemap</button></th>
          <th scope="col"><button type="button">Last modified</button></th>
        </tr></thead>
        <tbody>
          <xsl:for-each select="sm:sitemap">
            <tr>
              <td class="loc"><a href="{sm:loc}"><xsl:value-of select="sm:loc"/></a></td>
              <td><xsl:value-of select="sm:lastmod"/></td>
            </tr>
          </xsl:for-each>
        </tbody>
      </table>
    </div>
  </xsl:template>

  <xsl:template match="sm:urlset">
    <h1>Sitemap</h1>
    <p class="summary">
      <xsl:value-of select="count(sm:url)"/> URLs<xsl:if test="sm:url/xhtml:link">, <xsl:value-of select="count(sm:url[xhtml:link])"/> with hreflang alternates</xsl:if><xsl:if test="sm:url/image:image">, <xsl:value-of select="count(sm:url/image:image)"/> images</xsl:if><xsl:if test="sm:url/video:video">, <xsl:value-of select="count(sm:url/video:video)"/> videos</xsl:if><xsl:if test="sm:url/news:news">, <xsl:value-of select="count(sm:url/news:news)"/> news articles</xsl:if>
    </p>
    <div class="scroll">
      <table class="sortable">
        <caption class="muted" style="text-align:left">Select a column heading to sort</caption>
        <thead><tr>
          <th scope="col"><button type="button">URL</button></th>
          <th scope="col"><button type="button">Last modified</button></th>
          <th scope="col"><button type="button">Change frequency</button></th>
          <th scope="col" data-numeric=""><button type="button">Priority</button></th>
          <th scope="col" data-numeric=""><button type="button">Alternates</button></th>
          <th scope="col" data-numeric=""><button type="button">Images</button></th>
        </tr></thead>
        <tbody>
          <xsl:for-each select="sm:url">
            <tr>
              <td class="loc">
                <a href="{sm:loc}"><xsl:value-of select="sm:loc"/></a>
                <xsl:for-each select="video:video"><div class="muted">Video: <xsl:value-of select="video:title"/></div></xsl:for-each>
                <xsl:for-each select="news:news"><div class="muted">News: <xsl:value-of select="news:title"/> (<xsl:value-of select="news:publication_date"/>)</div></xsl:for-each>
              </td>
              <td><xsl:value-of select="sm:lastmod"/></td>
              <td><xsl:value-of select="sm:changefreq"/></td>
              <td class="num"><xsl:value-of select="sm:priority"/></td>
              <td data-sort="{count(xhtml:link)}">
                <xsl:if test="xhtml:link">
                  <ul>
                    <xsl:for-each select="xhtml:link">
                      <li><span class="lang"><xsl:value-of select="@hreflang"/></span><xsl:text> </xsl:text><a href="{@href}"><xsl:value-of select="@href"/></a></li>
                    </xsl:for-each>
                  </ul>
                </xsl:if>
              </td>
              <td data-sort="{count(image:image)}">
                <xsl:if test="image:image">
                  <ul>
                    <xsl:for-each select="image:image">
                      <li><a href="{image:loc}"><xsl:value-of select="image:loc"/></a></li>
                    </xsl:for-each>
                  </ul>
                </xsl:if>
              </td>
            </tr>
          </xsl:for-each>
        </tbody>
      </table>
    </div>
  </xsl:template>
</xsl:stylesheet>
`;
