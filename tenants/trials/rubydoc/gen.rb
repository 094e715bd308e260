require 'rdoc'
require 'fileutils'
class RDoc::Attr; def _call_seq; nil; end; end
out = File.expand_path(ARGV[0])
store = RDoc::Store.new('/usr/share/ri/3.1.0/system', :system)
store.load_all
options = RDoc::Options.new
options.op_dir = out
options.template_dir = File.join(File.dirname(RDoc::Generator::Darkfish.instance_method(:generate).source_location[0]), 'template/darkfish/')
options.title = "Ruby 3.1 Documentation"
options.main_page = 'README.md'
options.files = []
FileUtils.mkdir_p out
Dir.chdir out do
  rdoc = RDoc::RDoc.new
  rdoc.store = store
  rdoc.options = options
  gen = RDoc::Generator::Darkfish.new(store, options)
  rdoc.generator = gen
  gen.generate
end
